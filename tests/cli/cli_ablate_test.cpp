// `ablate` in-process: a tiny run trained through the CLI, then its heads ablated.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "in_process_run.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

std::size_t lineCount(const fs::path& file) {
  std::ifstream in(file);
  std::size_t lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  return lines;
}

TEST(CliAblate, PrintsTheTableAndWritesAblationCsv) {
  const fs::path dir = fs::temp_directory_path() / "ascope_cli_ablate_run";
  fs::remove_all(dir);
  const testing::CliOutcome train =
      testing::runInProcess({"train", "--task", kSentimentTaskId, "--preset", "tiny", "--steps",
                             "20", "--out", dir.string()});
  ASSERT_EQ(train.exit_code, 0) << train.err;

  const testing::CliOutcome o =
      testing::runInProcess({"ablate", "--run", dir.string(), "--samples", "50", "--threads", "1"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("head ablation of " + dir.string() + "/checkpoints/last.pt (step 20)"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("over 50 validation samples"), std::string::npos) << o.out;
  // The tiny model: one layer of two heads, with the whole layer dropped in the last column.
  EXPECT_NE(o.out.find("encoder · Δaccuracy with that head dropped\n"
                       "            head 0  head 1  drop layer\n"
                       "  layer 0 "),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("encoder · Δaccuracy with only that head kept\n"), std::string::npos);
  EXPECT_NE(o.out.find("wrote " + (dir / "ablation.csv").string()), std::string::npos) << o.out;
  EXPECT_EQ(lineCount(dir / "ablation.csv"), 2u + 5u);  // header, baseline, 2 + 2 + 1 rows
  fs::remove_all(dir);
}

TEST(CliAblate, BadRunFolderIsOneLineAndNonZero) {
  const std::string missing = (fs::temp_directory_path() / "ascope_cli_ablate_nowhere").string();
  const testing::CliOutcome o = testing::runInProcess({"ablate", "--run", missing});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err, "attentionscope-cli: " + missing +
                       ": no such run folder (see 'attentionscope-cli ablate --help')\n");
  EXPECT_TRUE(o.out.empty()) << o.out;
}

TEST(CliAblate, SamplesOutOfRangeIsAUsageError) {
  const testing::CliOutcome o =
      testing::runInProcess({"ablate", "--run", "somewhere", "--samples", "100001"});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err.rfind("attentionscope-cli: --samples: ", 0), 0u) << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
}

TEST(CliAblate, HelpNamesItsOptions) {
  const testing::CliOutcome o = testing::runInProcess({"ablate", "--help"});
  EXPECT_EQ(o.exit_code, 0);
  for (const char* option : {"--run", "--samples", "--decode-samples", "--threads"}) {
    EXPECT_NE(o.out.find(option), std::string::npos) << option << "\n" << o.out;
  }
  EXPECT_NE(testing::runInProcess({"--help"}).out.find("ablate"), std::string::npos);
}

}  // namespace
}  // namespace ascope
