// Head ablation: tiny runs trained here, ablated through ablateRun (the front ends' entry) and
// ablateHeads (a live task); the table, ablation.csv and the masks afterwards.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "engine/ablation/ablation_report.h"
#include "engine/ablation/head_ablation.h"
#include "engine/ablation/run_ablation.h"
#include "engine/core/run_folder_lock.h"
#include "engine/runfolder/ablation/ablation_csv.h"
#include "engine/runfolder/run_folder.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/registry/task_factory.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/task.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "engine/train/checkpoint.h"
#include "engine/train/trainer.h"
#include "forwarding_task.h"
#include "tests/engine/removed_at_exit.h"

namespace ascope {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

TrainingConfig tinyAblationConfig(const std::string& task) {
  TrainingConfig c = *makePreset(task, "tiny");
  c.probe_every_seconds = 1e9;
  return c;
}

/// Trains the tiny preset of `task` for `steps` steps into a folder of its own.
std::string trainTinyRun(const std::string& task, int64_t steps) {
  TrainingConfig c = tinyAblationConfig(task);
  c.out_dir = testing::freshTempPath("ascope_ablation_test_" + task);
  c.max_steps = steps;
  c.epochs = 1000;
  Trainer trainer(c);
  EXPECT_TRUE(trainer.start().ok());
  const auto deadline = std::chrono::steady_clock::now() + 300s;
  while (!trainer.finished() && std::chrono::steady_clock::now() < deadline) {
    trainer.drainEvents();
    std::this_thread::sleep_for(10ms);
  }
  trainer.wait();
  EXPECT_EQ(trainer.state(), TrainerState::kFinished) << task;
  return c.out_dir;
}

/// The run's task with its last.pt weights, built the way ablateRun builds it: its figures over
/// `figure_samples` samples.
std::unique_ptr<Task> loadedTask(const std::string& run_dir, int figure_samples) {
  Expected<RunFolder> folder = RunFolder::open(run_dir);
  EXPECT_TRUE(folder.ok());
  Expected<TrainingConfig> config = folder->readConfig();
  EXPECT_TRUE(config.ok());
  const TaskDescriptor* descriptor = TaskRegistry::instance().find(config->task);
  if (descriptor->set_figure_samples) descriptor->set_figure_samples(*config, figure_samples);
  Expected<std::unique_ptr<Task>> task =
      makeTrainingTask(*config, torch::Device(torch::kCPU), nullptr);
  EXPECT_TRUE(task.ok()) << task.error();
  EXPECT_TRUE(loadCheckpoint(folder->checkpointPath("last"), (*task)->model(), nullptr).ok());
  return std::move(*task);
}

std::vector<std::string> readLines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line);
  for (std::string field; std::getline(in, field, ',');) out.push_back(field);
  if (!line.empty() && line.back() == ',') out.push_back("");
  return out;
}

std::size_t count(const AblationTable& table, const std::string& ablation) {
  std::size_t n = 0;
  for (const AblationRow& row : table.rows) n += row.ablation == ablation;
  return n;
}

class HeadAblation : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    sentiment_run_ = new std::string(trainTinyRun(kSentimentTaskId, 40));
    translation_run_ = new std::string(trainTinyRun(kTranslationTaskId, 40));
  }
  static void TearDownTestSuite() {
    delete sentiment_run_;
    delete translation_run_;
  }
  static std::string* sentiment_run_;
  static std::string* translation_run_;
};
std::string* HeadAblation::sentiment_run_ = nullptr;
std::string* HeadAblation::translation_run_ = nullptr;

TEST(AttentionSites, NameTheGroupsLayersAndHeadsOfTheProbe) {
  for (const char* id : {kSentimentTaskId, kImageClassificationTaskId, kTranslationTaskId}) {
    Expected<std::unique_ptr<Task>> task =
        makeTrainingTask(tinyAblationConfig(id), torch::Device(torch::kCPU), nullptr);
    ASSERT_TRUE(task.ok()) << task.error();
    const std::vector<AttentionSite> sites = (*task)->attentionSites();
    const AttentionSnapshot probe = (*task)->probeAttention(0);
    std::size_t next = 0;
    for (const AttentionGroup& group : probe.groups) {
      for (int layer = 0; layer < group.layers; ++layer, ++next) {
        ASSERT_LT(next, sites.size()) << id << " " << group.name;
        EXPECT_EQ(sites[next].group, group.name) << id;
        EXPECT_EQ(sites[next].layer, layer) << id;
        EXPECT_EQ(sites[next].module->options().num_heads(), group.heads) << id;
      }
    }
    EXPECT_EQ(next, sites.size()) << id << ": sites the probe does not show";
  }
}

TEST_F(HeadAblation, SentimentRunGivesEveryRowAndItsCsv) {
  AblationOptions options;
  options.samples = 80;
  std::vector<int> reported;
  Expected<AblationTable> table = ablateRun(*sentiment_run_, options, [&](int done, int total) {
    reported.push_back(done);
    EXPECT_EQ(total, 1 + 2 * 2 + 1);  // tiny: 1 layer × 2 heads
    return true;
  });
  ASSERT_TRUE(table.ok()) << table.error();
  EXPECT_EQ(reported, (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(table->checkpoint, *sentiment_run_ + "/checkpoints/last.pt");
  EXPECT_EQ(table->step, 40);

  // The baseline is the run's model evaluated as it is.
  std::unique_ptr<Task> task = loadedTask(*sentiment_run_, 64);
  const EvaluationOutcome plain =
      task->evaluate(DataSplit::kValidation, 80, FigureSamples::kAsSettingsSay);
  EXPECT_EQ(table->baseline.ablation, "none");
  EXPECT_EQ(table->baseline.samples, 50);  // 80 asked: the whole 50-review validation split
  EXPECT_DOUBLE_EQ(table->baseline.loss, plain.loss);
  EXPECT_DOUBLE_EQ(table->baseline.accuracy, plain.accuracy);
  EXPECT_TRUE(table->baseline.figures.empty());

  // layers × heads "drop head", as many "keep only head", one "drop layer" per layer.
  EXPECT_EQ(table->rows.size(), 5u);
  EXPECT_EQ(count(*table, kAblationDropHead), 2u);
  EXPECT_EQ(count(*table, kAblationKeepOnlyHead), 2u);
  EXPECT_EQ(count(*table, kAblationDropLayer), 1u);
  EXPECT_EQ(table->groups(), std::vector<std::string>{"encoder"});
  const AblationRow* layer = table->find("encoder", 0, -1, kAblationDropLayer);
  ASSERT_NE(layer, nullptr);
  EXPECT_GT(std::fabs(layer->loss - plain.loss), 1e-4) << "dropping the only layer changed nothing";
  // The same masks on the live task give the same figures.
  task->attentionSites()[0].module->setHeadMask({false, true});
  const EvaluationOutcome head0_dropped =
      task->evaluate(DataSplit::kValidation, 80, FigureSamples::kAsSettingsSay);
  EXPECT_DOUBLE_EQ(table->find("encoder", 0, 0, kAblationDropHead)->loss, head0_dropped.loss);

  const std::vector<std::string> lines = readLines(ablationCsvPath(*sentiment_run_));
  ASSERT_EQ(lines.size(), 2 + table->rows.size());
  EXPECT_EQ(lines[0], kAblationCsvHeader);
  const std::vector<std::string> baseline = fields(lines[1]);
  ASSERT_EQ(baseline.size(), 9u) << lines[1];  // no figures for sentiment
  EXPECT_EQ(baseline[3], "none");
  EXPECT_EQ(baseline[4], "50");
  EXPECT_NEAR(std::stod(baseline[5]), plain.loss, 1e-6);
  const std::vector<std::string> dropped_layer = fields(lines.back());
  ASSERT_EQ(dropped_layer.size(), 9u) << lines.back();
  EXPECT_EQ(dropped_layer[0], "encoder");
  EXPECT_EQ(dropped_layer[2], "-1");
  EXPECT_EQ(dropped_layer[3], "drop layer");
  EXPECT_NEAR(std::stod(dropped_layer[8]), layer->accuracy - plain.accuracy, 1e-6);

  const std::string report = formatAblationTable(*table, declaredMetrics(kSentimentTaskId));
  EXPECT_NE(report.find("baseline (every head on): loss "), std::string::npos) << report;
  EXPECT_NE(report.find("encoder · Δaccuracy with that head dropped"), std::string::npos);
  EXPECT_NE(report.find("encoder · Δaccuracy with only that head kept"), std::string::npos);
  EXPECT_NE(report.find("drop layer"), std::string::npos);
  EXPECT_EQ(report.find("BLEU"), std::string::npos) << report;
}

TEST_F(HeadAblation, TranslationRunHasBleuForEveryRowInThreeGroups) {
  AblationOptions options;
  options.samples = 40;
  options.figure_samples = 8;
  Expected<AblationTable> table = ablateRun(*translation_run_, options, nullptr);
  ASSERT_TRUE(table.ok()) << table.error();
  EXPECT_EQ(table->groups(), (std::vector<std::string>{"encoder self", "decoder self", "cross"}));
  EXPECT_EQ(table->rows.size(), 3u * (2 * 2 + 1));  // tiny: 1 + 1 layers × 2 heads
  EXPECT_EQ(table->decoded_samples, 8);
  const EvaluationOutcome plain =
      loadedTask(*translation_run_, 8)
          ->evaluate(DataSplit::kValidation, 40, FigureSamples::kAsSettingsSay);
  ASSERT_TRUE(table->baseline.figures.has("bleu"));
  EXPECT_EQ(table->baseline.figures, plain.figures);
  EXPECT_DOUBLE_EQ(table->baseline.accuracy, plain.accuracy);
  for (const AblationRow& row : table->rows) EXPECT_TRUE(row.figures.has("bleu")) << row.group;
  const AblationRow* cross = table->find("cross", 0, -1, kAblationDropLayer);
  ASSERT_NE(cross, nullptr);
  EXPECT_GT(std::fabs(cross->loss - plain.loss), 1e-4) << "the decoder ignores the source";
  const std::string report = formatAblationTable(*table, declaredMetrics(table->task));
  EXPECT_NE(report.find("cross · ΔBLEU with that head dropped"), std::string::npos) << report;
  EXPECT_NE(report.find("cross · ΔCER with only that head kept"), std::string::npos) << report;
  EXPECT_NE(report.find(" BLEU "), std::string::npos) << report;
  EXPECT_EQ(readLines(ablationCsvPath(*translation_run_)).size(), 2 + table->rows.size());
}

TEST_F(HeadAblation, ReadsARunWhoseFolderATrainerHoldsLocked) {
  Expected<RunFolderLock> lock = RunFolderLock::acquire(*sentiment_run_);
  ASSERT_TRUE(lock.ok()) << lock.error();
  AblationOptions options;
  options.samples = 16;
  Expected<AblationTable> table = ablateRun(*sentiment_run_, options, nullptr);
  ASSERT_TRUE(table.ok()) << table.error();
  EXPECT_EQ(table->baseline.samples, 16);
}

TEST_F(HeadAblation, RefusesARunAnotherProcessIsTraining) {
  // The lock is held here, but its text names another process, as when `train --resume` of
  // another program holds it: ablation.csv must not be written into that run.
  Expected<RunFolderLock> lock = RunFolderLock::acquire(*sentiment_run_);
  ASSERT_TRUE(lock.ok()) << lock.error();
  {
    std::ofstream text(lock->path(), std::ios::trunc);
    text << "pid 1\nhost elsewhere\nsince 2026-12-05 10:00:00\n";
  }
  const fs::path csv = ablationCsvPath(*sentiment_run_);
  std::error_code ec;
  fs::remove(csv, ec);
  AblationOptions options;
  options.samples = 16;
  Expected<AblationTable> table = ablateRun(*sentiment_run_, options, nullptr);
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.error(), "run folder " + *sentiment_run_ +
                               " is in use by pid 1 since 2026-12-05 10:00:00 (host elsewhere): an "
                               "ablation writes ablation.csv there, so it waits until that run "
                               "has finished");
  EXPECT_FALSE(fs::exists(csv));
}

TEST(HeadAblationErrors, ARunWithoutCheckpointSaysSoAndNamesTheFolder) {
  const std::string dir = testing::freshTempPath("ascope_ablation_test_no_checkpoint");
  TrainingConfig config = tinyAblationConfig(kSentimentTaskId);
  Expected<RunFolder> folder = RunFolder::create(dir, config.task);
  ASSERT_TRUE(folder.ok()) << folder.error();
  ASSERT_TRUE(folder->writeConfig(config).ok());
  Expected<AblationTable> table = ablateRun(dir, {}, nullptr);
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.error().rfind("no checkpoint yet in " + dir + " (", 0), 0u) << table.error();

  Expected<AblationTable> missing = ablateRun(dir + "/nowhere", {}, nullptr);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), dir + "/nowhere: no such run folder");
}

/// A task whose `fail_at`-th evaluation throws, as LibTorch does when memory runs out.
class FailingTask final : public testing::ForwardingTask {
 public:
  FailingTask(std::unique_ptr<Task> inner, int fail_at)
      : ForwardingTask(std::move(inner)), fail_at_(fail_at) {}
  EvaluationOutcome evaluate(DataSplit split, int max_samples, FigureSamples figures) override {
    if (++evaluations_ == fail_at_) throw std::runtime_error("can't allocate memory\nbacktrace");
    return ForwardingTask::evaluate(split, max_samples, figures);
  }

 private:
  int fail_at_;
  int evaluations_ = 0;
};

TEST(HeadAblationErrors, MasksComeBackAfterSuccessCancelAndException) {
  TrainingConfig config = tinyAblationConfig(kTranslationTaskId);
  Expected<std::unique_ptr<Task>> built =
      makeTrainingTask(config, torch::Device(torch::kCPU), nullptr);
  ASSERT_TRUE(built.ok()) << built.error();
  FailingTask task(std::move(*built), /*fail_at=*/4);
  std::vector<AttentionSite> sites = task.attentionSites();
  ASSERT_EQ(sites.size(), 3u);
  const std::vector<bool> before{true, false};  // a mask someone set earlier
  sites[1].module->setHeadMask(before);
  auto expectMasksAsBefore = [&](const std::string& when) {
    EXPECT_TRUE(sites[0].module->headMask().empty()) << when;
    EXPECT_EQ(sites[1].module->headMask(), before) << when;
    EXPECT_TRUE(sites[2].module->headMask().empty()) << when;
  };
  AblationOptions options;
  options.samples = 8;
  options.figure_samples = 2;

  // Cancelled after the third of 16 evaluations.
  Expected<AblationTable> cancelled =
      ablateHeads(task, options, [](int done, int) { return done < 3; });
  ASSERT_FALSE(cancelled.ok());
  EXPECT_EQ(cancelled.error(), "cancelled");
  expectMasksAsBefore("after cancel");

  // The 4th evaluation (this task's first after the three above) throws.
  Expected<AblationTable> failed = ablateHeads(task, options, nullptr);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error(), "head ablation failed: can't allocate memory");
  expectMasksAsBefore("after an exception");

  Expected<AblationTable> table = ablateHeads(task, options, nullptr);
  ASSERT_TRUE(table.ok()) << table.error();
  expectMasksAsBefore("after success");
  // The baseline ran with every head on, the earlier mask included.
  sites[1].module->setHeadMask({});
  EXPECT_DOUBLE_EQ(table->baseline.loss,
                   task.evaluate(DataSplit::kValidation, 8, FigureSamples::kAsSettingsSay).loss);

  options.samples = 0;
  Expected<AblationTable> refused = ablateHeads(task, options, nullptr);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error(), "samples must be 1 to 100000, got 0");
}

}  // namespace
}  // namespace ascope
