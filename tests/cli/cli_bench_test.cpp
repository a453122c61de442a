// `attentionscope-cli bench` as a user meets it: real data, the seeds' shapes, and the refusals.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli_process.h"
namespace {

namespace fs = std::filesystem;

using ascope::cli_test::Outcome;

Outcome runBench(const std::string& args) {
  return ascope::cli_test::runCli("bench " + args);
}

/// A review CSV of `rows` reviews, in a folder of this process's own (ctest -j runs tests at once).
fs::path reviewCsv(int rows) {
  const fs::path path =
      fs::temp_directory_path() / ("ascope_bench_reviews_" + std::to_string(getpid()) + ".csv");
  std::ofstream csv(path);
  csv << "review,sentiment\n";
  for (int i = 0; i < rows; ++i) {
    // Each review its own first word: the splits are carved by distinct review, so 50 copies
    // of two would leave no review to validate on.
    const std::string first = "r" + std::to_string(i);
    csv << (i % 2 ? "\"" + first + " wonderful, moving film\",positive\n"
                  : first + " dull and boring plot,negative\n");
  }
  return path;
}

TEST(CliBench, TimesStepsOnARealCsv) {
  const fs::path csv = reviewCsv(50);  // 40 training reviews after the 80/20 split
  const Outcome o = runBench(
      "--task imdb --preset tiny --batch-size 8 --steps 2 --warmup 1 --data " + csv.string());
  fs::remove(csv);
  ASSERT_EQ(o.exit_code, 0) << o.output;
  EXPECT_EQ(o.output.rfind("ms_per_step=", 0), 0u) << o.output;
  // Reviews of 5 and 4 words, batches trimmed to 5 columns. Tiny model (d_model 32, d_ff 64):
  // per review 8·5·32² + 4·5²·32 + 4·5·32·64 + 2·2·32 = 85248, ×8 reviews ×3 = 0.002046 GFLOP.
  EXPECT_NE(o.output.find(" gflop_per_step=0.002046 "), std::string::npos) << o.output;
}

TEST(CliBench, AMissingDataFileIsNamed) {
  const Outcome o = runBench("--task imdb --data /no/such/reviews.csv");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.output.find("--data: /no/such/reviews.csv: no such file or folder"),
            std::string::npos)
      << o.output;
}

TEST(CliBench, TheSeedsShapesGiveTheirFlopCount) {
  // Tiny translator (d_model 32, d_ff 64, 1 + 1 layers), batch 32, vocabulary 100 on both sides,
  // source and decoder padded to 20: 3·32·(378880 + 593920 + 128000) = 0.1057 GFLOP
  // (encoder layer, decoder layer, projection per pair).
  const Outcome o = runBench(
      "--task translate --preset tiny --vocab 100 --pad-to 20 --steps 1 "
      "--warmup 0");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  EXPECT_NE(o.output.find(" gflop_per_step=0.1057 "), std::string::npos) << o.output;
}

TEST(CliBench, PaddingShorterThanAPairIsRefused) {
  // A value of --pad-to the task cannot take is bad input: exit 2, named by its option.
  const Outcome o = runBench("--task translate --preset tiny --pad-to 3 --steps 1");
  EXPECT_EQ(o.exit_code, 2) << o.output;
  EXPECT_NE(o.output.find("attentionscope-cli: --pad-to 3: pad_to 3 is shorter than the longest "
                          "pair of builtin, which needs "),
            std::string::npos)
      << o.output;
  const Outcome beyond = runBench("--task translate --preset tiny --pad-to 30 --steps 1");
  EXPECT_EQ(beyond.exit_code, 2) << beyond.output;
  EXPECT_NE(beyond.output.find("--pad-to 30: pad_to 30 is longer than the model's seq_len 24"),
            std::string::npos)
      << beyond.output;
}

TEST(CliBench, AVocabularyForATaskWithoutWordsIsNamed) {
  // It ended with exit 1 and "vocab and pad_to are for text tasks", not naming --vocab.
  const Outcome o = runBench("--task vit --preset tiny --vocab 1000000 --steps 1");
  EXPECT_EQ(o.exit_code, 2) << o.output;
  EXPECT_NE(o.output.find("attentionscope-cli: --vocab 1000000: vocab and pad_to are for text "
                          "tasks"),
            std::string::npos)
      << o.output;
}

TEST(CliBench, VocabularyReplacesTheDataSoNotBoth) {
  const fs::path csv = reviewCsv(10);
  const Outcome o = runBench("--task imdb --vocab 1000 --data " + csv.string());
  fs::remove(csv);
  EXPECT_EQ(o.exit_code, 2) << o.output;
  EXPECT_NE(o.output.find("--data excludes --vocab"), std::string::npos) << o.output;
}

}  // namespace
