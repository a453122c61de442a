// The CLI's commands run in this process (runCli), with a task registered here: what the CLI shows
// and accepts comes from the task registry, not from names it knows.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "engine/tasks/registry/task_registry.h"
#include "in_process_run.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

constexpr const char* kFakeId = "fake";

/// A text classification task under another id: a copy of a registered one (found by what it does,
/// not by name) whose presets say they are the fake's.
void registerFakeTask() {
  if (TaskRegistry::instance().find(kFakeId) != nullptr) return;
  for (const TaskDescriptor* task : TaskRegistry::instance().all()) {
    if (task->input != TaskInput::kText || task->sample_terms.free_text) continue;
    TaskDescriptor fake = *task;
    fake.id = kFakeId;
    fake.title = "Fake · registered by cli_in_process_test";
    fake.data_formats = "nothing but the built-in data";
    fake.set_languages = nullptr;
    fake.make_preset = [make = task->make_preset](const std::string& preset) {
      TrainingConfig config = make(preset);
      config.task = kFakeId;
      return config;
    };
    ASSERT_TRUE(TaskRegistry::instance().add(std::move(fake)).ok());
    return;
  }
  FAIL() << "no text classification task is registered";
}

using Outcome = testing::CliOutcome;

Outcome run(const std::vector<std::string>& args) {
  return testing::runInProcess(args);
}

class CliInProcess : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { registerFakeTask(); }
};

TEST_F(CliInProcess, HelpListsARegisteredTaskWithItsTitleAndData) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--help"}, {"train", "--help"}, {"bench", "--help"}}) {
    const Outcome o = run(args);
    EXPECT_EQ(o.exit_code, 0) << args[0];
    EXPECT_NE(o.out.find("Fake · registered by cli_in_process_test"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("nothing but the built-in data"), std::string::npos) << o.out;
  }
  EXPECT_NE(run({"train", "--help"}).out.find(" or fake (see tasks below)"), std::string::npos);
}

TEST_F(CliInProcess, UsageErrorsAreOneLineWithExitCode2) {
  const Outcome o = run({"train", "--task", kFakeId, "--batch-size", "9223372036854775807"});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err.rfind("attentionscope-cli: --batch-size: ", 0), 0u) << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  EXPECT_TRUE(o.out.empty()) << o.out;
}

TEST_F(CliInProcess, LanguagesNeedATaskWithALanguagePair) {
  const Outcome o = run({"train", "--task", kFakeId, "--source-lang", "de"});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find("are for a task with a language pair"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("not fake"), std::string::npos) << o.err;
}

TEST_F(CliInProcess, TrainsAndAsksARegisteredTask) {
  const fs::path dir = fs::temp_directory_path() / "ascope_cli_in_process_fake";
  fs::remove_all(dir);
  const Outcome train =
      run({"train", "--task", kFakeId, "--preset", "tiny", "--steps", "3", "--out", dir.string()});
  ASSERT_EQ(train.exit_code, 0) << train.err;
  EXPECT_NE(train.out.find("summary: finished after 3 steps"), std::string::npos) << train.out;

  const Outcome infer = run({"infer", "--run", dir.string(), "--text", "a wonderful film"});
  ASSERT_EQ(infer.exit_code, 0) << infer.err;
  EXPECT_NE(infer.out.find(" (p="), std::string::npos) << infer.out;
  const Outcome image = run({"infer", "--run", dir.string(), "--image", "x.png"});
  EXPECT_EQ(image.exit_code, 2);
  EXPECT_NE(image.err.find("is a run of fake"), std::string::npos) << image.err;
  fs::remove_all(dir);
}

// A task with its own model and its own input (engine/tasks/digit_order/, one registry line): the
// CLI trains it and answers typed digits with their attention, knowing nothing of it.
TEST_F(CliInProcess, TrainsATaskWithItsOwnModelAndInput) {
  const fs::path dir = fs::temp_directory_path() / "ascope_cli_in_process_digits";
  fs::remove_all(dir);
  const Outcome train =
      run({"train", "--task", "digits", "--preset", "tiny", "--steps", "5", "--out", dir.string()});
  ASSERT_EQ(train.exit_code, 0) << train.err;
  EXPECT_NE(train.out.find("summary: finished after 5 steps"), std::string::npos) << train.out;
  const Outcome infer = run({"infer", "--run", dir.string(), "--text", "1 2 3 9 4"});
  ASSERT_EQ(infer.exit_code, 0) << infer.err;
  EXPECT_TRUE(infer.out.find("in order (p=") != std::string::npos ||
              infer.out.find("out of order (p=") != std::string::npos)
      << infer.out;
  const Outcome bad = run({"infer", "--run", dir.string(), "--text", "one two"});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("only the digits 0-9, spaces and commas, got 'o' (U+006F)"),
            std::string::npos)
      << bad.err;
  fs::remove_all(dir);
}

// The reversal task (engine/tasks/letter_reversal/): a figure no other task has, an edit distance
// where lower is better, reaches the summary and `evaluate`'s JSON through its declaration alone.
TEST_F(CliInProcess, ATaskWithItsOwnFigureReportsItEverywhere) {
  const fs::path dir = fs::temp_directory_path() / "ascope_cli_in_process_reverse";
  fs::remove_all(dir);
  const Outcome train = run(
      {"train", "--task", "reverse", "--preset", "tiny", "--steps", "30", "--out", dir.string()});
  ASSERT_EQ(train.exit_code, 0) << train.err;
  EXPECT_NE(train.out.find("edit distance "), std::string::npos) << train.out;
  const Outcome infer = run({"infer", "--run", dir.string(), "--text", "Lamp"});
  ASSERT_EQ(infer.exit_code, 0) << infer.err;
  EXPECT_FALSE(infer.out.empty());
  const Outcome bad = run({"infer", "--run", dir.string(), "--text", "two words"});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("has a space inside"), std::string::npos) << bad.err;
  const fs::path json = dir / "evaluation.json";
  const Outcome evaluate = run({"evaluate", "--run", dir.string(), "--data", "builtin", "--split",
                                "test", "--errors", "1", "--out", json.string()});
  ASSERT_EQ(evaluate.exit_code, 0) << evaluate.err;
  EXPECT_NE(evaluate.out.find("letters to change, add or remove"), std::string::npos)
      << evaluate.out;
  std::ifstream in(json);
  const nlohmann::json report = nlohmann::json::parse(in);
  ASSERT_TRUE(report.at("figures").contains("edit_distance")) << report.dump();
  EXPECT_GE(report.at("figures").at("edit_distance").get<double>(), 0.0);
  EXPECT_FALSE(report.contains("confusion_matrix"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ascope
