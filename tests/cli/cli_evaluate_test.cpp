// `evaluate` in-process: tiny runs trained through the CLI, then scored on a data set named on the
// command line, with the JSON report's confusion matrix, BLEU and worst errors checked.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "in_process_run.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

nlohmann::json readJson(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

fs::path trainTiny(const std::string& task, const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("ascope_cli_evaluate_" + name);
  fs::remove_all(dir);
  const testing::CliOutcome train = testing::runInProcess(
      {"train", "--task", task, "--preset", "tiny", "--steps", "20", "--out", dir.string()});
  EXPECT_EQ(train.exit_code, 0) << train.err;
  return dir;
}

TEST(CliEvaluate, ClassificationWritesTheConfusionMatrixAndTheWorstErrors) {
  const fs::path run = trainTiny(kSentimentTaskId, "sentiment");
  const fs::path out = run / "evaluation.json";
  const testing::CliOutcome o =
      testing::runInProcess({"evaluate", "--run", run.string(), "--data", "builtin", "--errors",
                             "3", "--out", out.string()});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("split test: the last 50 of the generator's held-out reviews"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("confusion matrix (rows: true class, columns: answered)"), std::string::npos)
      << o.out;
  const nlohmann::json j = readJson(out);
  EXPECT_EQ(j.at("task"), kSentimentTaskId);
  EXPECT_EQ(j.at("split"), "test");
  EXPECT_EQ(j.at("samples"), 50);
  EXPECT_EQ(j.at("classes"), (nlohmann::json{"negative", "positive"}));
  const nlohmann::json& m = j.at("confusion_matrix");
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0][0].get<int>() + m[0][1].get<int>() + m[1][0].get<int>() + m[1][1].get<int>(), 50);
  ASSERT_EQ(j.at("per_class").size(), 2u);
  EXPECT_EQ(j.at("per_class")[0].at("support"), m[0][0].get<int>() + m[0][1].get<int>());
  EXPECT_EQ(j.at("samples_scored").size(), 50u);
  const nlohmann::json& worst = j.at("worst_errors");
  ASSERT_LE(worst.size(), 3u);
  for (const nlohmann::json& e : worst) {
    EXPECT_NE(e.at("label"), e.at("prediction"));
    EXPECT_TRUE(e.at("input").is_string());
    const nlohmann::json& groups = e.at("attention").at("groups");
    ASSERT_EQ(groups.size(), 1u);
    EXPECT_EQ(groups[0].at("maps").size(), 2u) << "every layer and head: one layer of two heads";
  }
  fs::remove_all(run);
}

TEST(CliEvaluate, TranslationPrintsSacreBleuAndWritesTheWorstSentences) {
  const fs::path run = trainTiny(kTranslationTaskId, "translation");
  const fs::path out = run / "evaluation.json";
  const testing::CliOutcome o =
      testing::runInProcess({"evaluate", "--run", run.string(), "--data", "builtin", "--split",
                             "validation", "--errors", "2", "--out", out.string()});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  // Every figure the task declares, titled and explained as it declares them.
  EXPECT_NE(o.out.find("as sacreBLEU computes it (13a words, exp smoothing, raw references)"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("BLEU 4-gram precision"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("token accuracy"), std::string::npos) << o.out;
  const nlohmann::json j = readJson(out);
  EXPECT_EQ(j.at("split"), "validation");
  const nlohmann::json& t = j.at("figures");
  EXPECT_GE(t.at("bleu").get<double>(), 0.0);
  EXPECT_LE(t.at("bleu").get<double>(), 100.0);
  for (const char* key : {"bleu_precision_1", "bleu_precision_4", "brevity_penalty", "chrf", "cer",
                          "wer", "exact_match"}) {
    EXPECT_TRUE(t.contains(key)) << key;
  }
  EXPECT_FALSE(j.contains("confusion_matrix"));
  ASSERT_EQ(j.at("worst_errors").size(), 2u);
  EXPECT_EQ(j.at("worst_errors")[0].at("attention").at("groups").size(), 3u);
  EXPECT_GE(j.at("worst_errors")[0].at("loss").get<double>(),
            j.at("worst_errors")[1].at("loss").get<double>());
  fs::remove_all(run);
}

/// A review CSV of `count` made-up reviews numbered from `first`; `bad_byte` puts a byte that is
/// not UTF-8 in the fourth.
void writeReviews(const fs::path& path, int count, int first, bool bad_byte) {
  const char* words[] = {"good", "bad", "fine", "awful", "great", "boring"};
  std::ofstream out(path, std::ios::binary);
  out << "text,label\n";
  for (int i = 0; i < count; ++i) {
    const int a = (i * 7 + first) % 6, b = (i * 5 + 1) % 6;
    out << words[a] << " " << words[b] << " film " << first + i
        << (bad_byte && i == 3 ? " \xff" : "") << "," << (a % 2 == 0 ? 1 : 0) << "\n";
  }
}

TEST(CliEvaluate, AFileThatIsNotTheRunsDataIsScoredWholeAndComparedWithTheRunsTraining) {
  // Before: a file sharing nothing with training was scored on a carved tenth by default, and
  // with --split all said "270 of the 300 test reviews also occur in the training data" (it
  // compared the file with its own carved part); its UTF-8 warning came twice.
  const fs::path dir = fs::temp_directory_path() / "ascope_cli_evaluate_foreign";
  fs::remove_all(dir);
  fs::create_directories(dir);
  writeReviews(dir / "reviews.csv", 400, 0, false);
  writeReviews(dir / "other.csv", 300, 1000, true);
  const testing::CliOutcome train = testing::runInProcess(
      {"train", "--task", kSentimentTaskId, "--preset", "tiny", "--data",
       (dir / "reviews.csv").string(), "--steps", "10", "--out", (dir / "run").string()});
  ASSERT_EQ(train.exit_code, 0) << train.err;
  for (const bool all : {false, true}) {
    std::vector<std::string> args = {
        "evaluate", "--run", (dir / "run").string(), "--data", (dir / "other.csv").string(),
        "--errors", "0"};
    if (all) args.insert(args.end(), {"--split", "all"});
    const testing::CliOutcome o = testing::runInProcess(args);
    ASSERT_EQ(o.exit_code, 0) << o.err;
    EXPECT_NE(o.out.find("split all: every sample of " + (dir / "other.csv").string() +
                         " (not the run's own data)"),
              std::string::npos)
        << o.out;
    EXPECT_NE(o.out.find("300 samples"), std::string::npos) << o.out;
    EXPECT_EQ(o.err.find("also occur in the training data"), std::string::npos) << o.err;
    const std::size_t warned = o.err.find("invalid UTF-8");
    ASSERT_NE(warned, std::string::npos) << o.err;
    EXPECT_EQ(o.err.find("invalid UTF-8", warned + 1), std::string::npos) << "once: " << o.err;
  }
  // Its own data keeps giving back its own test split; scored whole, what occurs in training is
  // said, since it does.
  const testing::CliOutcome own = testing::runInProcess(
      {"evaluate", "--run", (dir / "run").string(), "--data", (dir / "reviews.csv").string()});
  ASSERT_EQ(own.exit_code, 0) << own.err;
  EXPECT_NE(own.out.find("split test: 40 reviews carved from the training data"), std::string::npos)
      << own.out;
  // The run's data gone from this machine: nothing is claimed about it.
  fs::rename(dir / "reviews.csv", dir / "away.csv");
  const testing::CliOutcome away = testing::runInProcess(
      {"evaluate", "--run", (dir / "run").string(), "--data", (dir / "other.csv").string()});
  ASSERT_EQ(away.exit_code, 0) << away.err;
  EXPECT_EQ(away.err.find("also occur in the training data"), std::string::npos) << away.err;
  EXPECT_NE(away.err.find("is not on this machine: whether the samples scored occur in it is not "
                          "checked"),
            std::string::npos)
      << away.err;
}

TEST(CliEvaluate, BadInputIsOneLineAndNonZero) {
  const testing::CliOutcome no_run =
      testing::runInProcess({"evaluate", "--run", "/nonexistent/run", "--data", "builtin"});
  EXPECT_EQ(no_run.exit_code, 2);
  EXPECT_NE(no_run.err.find("/nonexistent/run"), std::string::npos) << no_run.err;
  const testing::CliOutcome bad_split =
      testing::runInProcess({"evaluate", "--run", "/tmp", "--data", "builtin", "--split", "dev"});
  EXPECT_EQ(bad_split.exit_code, 2);
  EXPECT_NE(bad_split.err.find("--split"), std::string::npos) << bad_split.err;
  const testing::CliOutcome help = testing::runInProcess({"evaluate", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--errors"), std::string::npos);
}

}  // namespace
}  // namespace ascope
