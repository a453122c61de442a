// Three splits, named for what they are: a run validates on data carved from its training data,
// tests on the data set's own test split (or a named or carved one) and reports "no test split"
// rather than reusing validation; run folders made before keep their one held-out split and are
// labelled for what their figure was.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "engine/inference/read_run.h"
#include "engine/tasks/registry/task_factory.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/review_data_settings.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "engine/train/trainer.h"
#include "tests/engine/removed_at_exit.h"
#include "tests/support/test_files.h"
#include "trainer_drain.h"

namespace ascope {
namespace {

using testing::writeFile;

namespace fs = std::filesystem;

/// Reviews that say what they are: "good" ones positive, "bad" ones negative; `flipped` gives each
/// the other label, so a model that learned the words gets every one of them wrong.
std::string reviewsCsv(int count, int first, bool flipped) {
  std::string csv = "text,label\n";
  for (int i = first; i < first + count; ++i) {
    const bool positive = i % 2 == 0;
    csv += std::string(positive ? "good fine good" : "bad awful bad") + " review number " +
           std::to_string(i) + "," + std::to_string(positive != flipped ? 1 : 0) + "\n";
  }
  return csv;
}

TrainingConfig tinyReviews(const std::string& data, const std::string& name) {
  TrainingConfig c = *makePreset(kSentimentTaskId, "tiny");
  c.data = data;
  c.out_dir = testing::freshTempPath("ascope_splits_" + name);
  c.probe_every_seconds = 1e9;
  c.epochs = 8;
  c.task_settings.as<ReviewDataSettings>().min_freq = 1;
  return c;
}

bool logged(const RunEvents& run, const std::string& text) {
  return std::any_of(run.logs.begin(), run.logs.end(),
                     [&](const std::string& l) { return l.find(text) != std::string::npos; });
}

TEST(DataSplits, TheTestFigureComesFromTheDataSetsOwnTestSplitAlone) {
  // train.csv + test.csv: the test reviews say the opposite of what training taught, so a test
  // figure drawn from validation (carved from train.csv) would be high, one from test.csv low.
  const std::string folder = testing::freshTempPath("ascope_splits_own_data");
  fs::create_directories(folder);
  writeFile(folder + "/train.csv", reviewsCsv(400, 0, false));
  writeFile(folder + "/test.csv", reviewsCsv(60, 1000, true));
  const RunEvents run = runAndCollect(tinyReviews(folder, "own"));
  ASSERT_EQ(run.state, TrainerState::kFinished);
  ASSERT_FALSE(run.epochs.empty());
  ASSERT_EQ(run.tests.size(), 1u);
  const TestEvaluation& t = run.tests[0];
  EXPECT_EQ(t.split, "test");
  EXPECT_EQ(t.samples, 60) << "every review of test.csv, no other";
  EXPECT_EQ(t.origin, "the data set's own test split");
  EXPECT_GT(run.epochs.back().val_accuracy, 0.9) << "validation: carved from train.csv";
  EXPECT_LT(t.accuracy, 0.1) << "test: test.csv alone";
  EXPECT_TRUE(logged(run, "validation split: 40 reviews carved from the training data"));
  EXPECT_TRUE(logged(run, "test split: the data set's own test split"));
}

TEST(DataSplits, ASingleFileGetsACarvedTestSplitOrNoneAtAll) {
  const std::string folder = testing::freshTempPath("ascope_splits_single");
  fs::create_directories(folder);
  writeFile(folder + "/reviews.csv", reviewsCsv(300, 0, false));
  TrainingConfig carved = tinyReviews(folder + "/reviews.csv", "carved");
  carved.epochs = 1;
  const RunEvents with_test = runAndCollect(carved);
  ASSERT_EQ(with_test.tests.size(), 1u);
  EXPECT_EQ(with_test.tests[0].split, "test");
  EXPECT_EQ(with_test.tests[0].samples, 30);  // 10 % of 300, none of them in training
  EXPECT_NE(with_test.tests[0].origin.find("carved from the training data"), std::string::npos);

  TrainingConfig none = tinyReviews(folder + "/reviews.csv", "none");
  none.epochs = 1;
  none.splits.test_fraction = 0;
  const RunEvents without = runAndCollect(none);
  EXPECT_EQ(without.state, TrainerState::kFinished);
  ASSERT_EQ(without.tests.size(), 1u);
  EXPECT_EQ(without.tests[0].split, "none");
  EXPECT_EQ(without.tests[0].samples, 0);
  EXPECT_TRUE(logged(without, "no test split"));
  Expected<OpenedRun> opened = readRun(none.out_dir);
  ASSERT_TRUE(opened.ok()) << opened.error();
  EXPECT_FALSE(opened->test.has_value()) << "no row in metrics.csv for a test that was not run";
}

TEST(DataSplits, BuiltInDataSharesItsHeldOutSamplesAndTrainsOnTheSameData) {
  const TrainingConfig c = *makePreset(kSentimentTaskId, "tiny");  // 400 training, 100 held out
  Expected<std::unique_ptr<Task>> task = makeTrainingTask(c, torch::kCPU, nullptr);
  ASSERT_TRUE(task.ok()) << task.error();
  EXPECT_EQ((*task)->trainSize(), 400);
  EXPECT_EQ((*task)->validationSize(), 50);
  EXPECT_EQ((*task)->testSize(), 50);
  EXPECT_NE((*task)->splitOrigins().validation.find("generator's held-out reviews"),
            std::string::npos);
}

TEST(DataSplits, ATranslationRunCanNameItsTestAndValidationFiles) {
  const std::string folder = testing::freshTempPath("ascope_splits_named");
  fs::create_directories(folder);
  std::string train_tsv, test_tsv, validation_tsv;
  for (int i = 0; i < 200; ++i) train_tsv += "the cat " + std::to_string(i) + "\til gatto\n";
  for (int i = 0; i < 7; ++i) test_tsv += "a dog " + std::to_string(i) + "\tun cane\n";
  for (int i = 0; i < 5; ++i) validation_tsv += "a bird " + std::to_string(i) + "\tun uccello\n";
  writeFile(folder + "/train.tsv", train_tsv);
  writeFile(folder + "/test.tsv", test_tsv);
  writeFile(folder + "/validation.tsv", validation_tsv);
  TrainingConfig c = *makePreset(kTranslationTaskId, "tiny");
  c.data = folder + "/train.tsv";
  c.splits.test_data = folder + "/test.tsv";
  std::vector<std::string> warnings;
  Expected<std::unique_ptr<Task>> task = makeTrainingTask(c, torch::kCPU, &warnings);
  ASSERT_TRUE(task.ok()) << task.error();
  EXPECT_EQ((*task)->testSize(), 7);
  EXPECT_EQ((*task)->validationSize(), 20);  // carved: 10 % of the 200 training pairs
  EXPECT_EQ((*task)->trainSize(), 180);
  EXPECT_EQ((*task)->splitOrigins().test, folder + "/test.tsv (named as the test data)");

  c.splits.validation_data = folder + "/validation.tsv";
  task = makeTrainingTask(c, torch::kCPU, &warnings);
  ASSERT_TRUE(task.ok()) << task.error();
  EXPECT_EQ((*task)->validationSize(), 5);
  EXPECT_EQ((*task)->trainSize(), 200) << "nothing carved: both held-out files are named";

  c.splits.test_data = folder + "/missing.tsv";
  task = makeTrainingTask(c, torch::kCPU, &warnings);
  ASSERT_FALSE(task.ok());
  EXPECT_NE(task.error().find("test data: " + folder + "/missing.tsv"), std::string::npos)
      << task.error();
}

TEST(DataSplits, RunFoldersMadeBeforeKeepTheirSplitAndTheirFigureIsNamedForWhatItWas) {
  TrainingConfig c = *makePreset(kSentimentTaskId, "tiny");
  nlohmann::json j = c;
  ASSERT_TRUE(j.contains("splits"));
  j.erase("splits");  // a config.json written before separate test splits
  const TrainingConfig old = j.get<TrainingConfig>();
  EXPECT_EQ(old.splits.layout, 1);
  Expected<std::unique_ptr<Task>> task = makeTrainingTask(old, torch::kCPU, nullptr);
  ASSERT_TRUE(task.ok()) << task.error();
  EXPECT_EQ((*task)->trainSize(), 400);
  EXPECT_EQ((*task)->validationSize(), 100) << "the whole held-out split validates, as before";
  EXPECT_EQ((*task)->testSize(), 100);
  EXPECT_NE((*task)->splitOrigins().test.find("not an independent test"), std::string::npos);

  TrainingConfig run = old;
  run.out_dir = testing::freshTempPath("ascope_splits_old");
  run.max_steps = 3;
  run.probe_every_seconds = 1e9;
  const RunEvents ran = runAndCollect(run);
  ASSERT_EQ(ran.tests.size(), 1u);
  EXPECT_EQ(ran.tests[0].split, "validation");
  // Its config.json says layout 1 from now on, and the opened run names its figure.
  Expected<OpenedRun> opened = readRun(run.out_dir);
  ASSERT_TRUE(opened.ok()) << opened.error();
  ASSERT_TRUE(opened->test.has_value());
  EXPECT_EQ(opened->test->split, "validation");
  EXPECT_EQ(opened->config.splits.layout, 1);
}

TEST(DataSplits, SplitSettingsAreChecked) {
  TrainingConfig c = *makePreset(kSentimentTaskId, "tiny");
  c.splits.test_fraction = 0.7;
  EXPECT_EQ(validateConfig(c).error(), "splits.test_fraction must be in [0, 0.5], got 0.7");
  c.splits.test_fraction = 0.1;
  c.splits.validation_fraction = 0;
  EXPECT_NE(validateConfig(c).error().find("splits.validation_fraction must be above 0"),
            std::string::npos);
}

}  // namespace
}  // namespace ascope
