// A learning rate sent while a run goes: the step that first uses it is announced, logged and
// written to learning_rates.csv, metrics.csv shows it from that step on, an opened run reads it
// back, and a resumed run keeps it. Also the file's reader on damaged input.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "engine/inference/read_run.h"
#include "engine/runfolder/learning_rates/learning_rate_changes_csv.h"
#include "engine/runfolder/metrics/metrics_csv_writer.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/train/trainer.h"
#include "tests/engine/removed_at_exit.h"
#include "tests/support/test_files.h"
#include "trainer_drain.h"

namespace ascope {
namespace {

using testing::writeFile;

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string liveLrDir(const std::string& name) {
  return testing::freshTempPath("ascope_live_lr_test_" + name);
}

/// The tiny sentiment preset for `steps` steps, probing by step count only.
TrainingConfig tinyRun(const std::string& name, int64_t steps) {
  TrainingConfig c = *makePreset(kSentimentTaskId, "tiny");
  c.out_dir = liveLrDir(name);
  c.max_steps = steps;
  c.probe_every_seconds = 1e9;
  return c;
}

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool waitFor(Trainer& trainer, TrainerState state, EventBatch& seen) {
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (trainer.state() != state && std::chrono::steady_clock::now() < deadline) {
    EventBatch b = trainer.drainEvents();
    seen.logs.insert(seen.logs.end(), b.logs.begin(), b.logs.end());
    std::this_thread::sleep_for(2ms);
  }
  return trainer.state() == state;
}

TEST(LiveLearningRate, PausedRunTakesItAtTheNextStepAndRecordsIt) {
  const TrainingConfig c = tinyRun("paused", 6);
  Trainer trainer(c);
  ASSERT_TRUE(trainer.start(/*start_paused=*/true).ok());
  EventBatch seen;
  ASSERT_TRUE(waitFor(trainer, TrainerState::kPaused, seen));
  trainer.stepOnce();
  trainer.stepOnce();
  std::vector<LearningRateChange> changes;
  std::vector<LogLine> logs;
  std::vector<StepMetrics> steps;
  auto collect = [&](EventBatch b) {
    changes.insert(changes.end(), b.learning_rate_changes.begin(), b.learning_rate_changes.end());
    logs.insert(logs.end(), b.logs.begin(), b.logs.end());
    steps.insert(steps.end(), b.metrics.begin(), b.metrics.end());
  };
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (steps.size() < 2 && std::chrono::steady_clock::now() < deadline) {
    collect(trainer.drainEvents());
    std::this_thread::sleep_for(2ms);
  }
  ASSERT_EQ(steps.size(), 2u);
  trainer.setLearningRate(2.5e-4);
  std::this_thread::sleep_for(50ms);
  collect(trainer.drainEvents());
  EXPECT_TRUE(changes.empty()) << "paused: nothing trained with it yet";
  trainer.resume();
  drainUntilFinished(trainer, collect);
  ASSERT_EQ(trainer.state(), TrainerState::kFinished);

  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].step, 3);
  EXPECT_DOUBLE_EQ(changes[0].lr, 2.5e-4);
  EXPECT_DOUBLE_EQ(changes[0].previous_lr, c.optimization.lr);
  bool logged = false;
  for (const LogLine& line : logs) {
    logged = logged || line.text.find("learning rate 0.00025 from step 3") != std::string::npos;
  }
  EXPECT_TRUE(logged);
  for (const StepMetrics& m : steps) {
    EXPECT_DOUBLE_EQ(m.lr, m.step >= 3 ? 2.5e-4 : c.optimization.lr) << "step " << m.step;
  }
  const std::string dir = trainer.runDir();
  EXPECT_EQ(readText(learningRateChangesPath(dir)), "step,lr,previous_lr\n3,0.00025,0.003\n");
  const Expected<OpenedRun> opened = readRun(dir);
  ASSERT_TRUE(opened.ok()) << opened.error();
  ASSERT_EQ(opened->learning_rate_changes.size(), 1u);
  EXPECT_EQ(opened->learning_rate_changes[0].step, 3);

  // Resumed with more steps: the rate set by hand still holds, not the schedule's.
  TrainingConfig more = c;
  more.out_dir = dir;
  more.resume = true;
  more.max_steps = 8;
  Trainer resumed(more);
  ASSERT_TRUE(resumed.start().ok());
  std::vector<StepMetrics> later;
  drainUntilFinished(resumed, [&](EventBatch b) {
    later.insert(later.end(), b.metrics.begin(), b.metrics.end());
  });
  ASSERT_FALSE(later.empty());
  for (const StepMetrics& m : later) EXPECT_DOUBLE_EQ(m.lr, 2.5e-4) << "step " << m.step;
  fs::remove_all(dir);
}

TEST(LiveLearningRate, RefusedRateChangesNothing) {
  const TrainingConfig c = tinyRun("refused", 3);
  Trainer trainer(c);
  trainer.setLearningRate(-1);
  trainer.setLearningRate(std::nan(""));
  ASSERT_TRUE(trainer.start().ok());
  std::vector<LearningRateChange> changes;
  std::vector<StepMetrics> steps;
  bool warned = false;
  drainUntilFinished(trainer, [&](EventBatch b) {
    changes.insert(changes.end(), b.learning_rate_changes.begin(), b.learning_rate_changes.end());
    steps.insert(steps.end(), b.metrics.begin(), b.metrics.end());
    for (const LogLine& l : b.logs) warned = warned || l.text.find("refused") != std::string::npos;
  });
  EXPECT_TRUE(changes.empty());
  EXPECT_TRUE(warned);
  for (const StepMetrics& m : steps) EXPECT_DOUBLE_EQ(m.lr, c.optimization.lr);
  fs::remove_all(trainer.runDir());
}

TEST(LearningRateChangesCsv, DamagedRowsAreSkippedWithTheirLine) {
  const std::string dir = liveLrDir("csv");
  fs::create_directories(dir);
  // No file: no changes, no error.
  Expected<LearningRateChanges> none = readLearningRateChanges(dir);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->changes.empty());

  writeFile(learningRateChangesPath(dir),
            "step,lr,previous_lr\n20,1e-4,0.001\n0,1e-3,1e-3\n5,-1,1e-3\n7,abc,1\n10,1e-3,0\n"
            "11,1e-3\n12,1e-3,1e-3,9\n");
  Expected<LearningRateChanges> read = readLearningRateChanges(dir);
  ASSERT_TRUE(read.ok()) << read.error();
  ASSERT_EQ(read->changes.size(), 2u);
  EXPECT_EQ(read->changes[0].step, 10);  // by step
  EXPECT_DOUBLE_EQ(read->changes[0].previous_lr, 0.0);
  EXPECT_EQ(read->changes[1].step, 20);
  ASSERT_EQ(read->warnings.size(), 5u);
  EXPECT_NE(read->warnings[0].find("line 3 skipped: step \"0\""), std::string::npos)
      << read->warnings[0];
  EXPECT_NE(read->warnings[1].find("lr \"-1\""), std::string::npos) << read->warnings[1];

  writeFile(learningRateChangesPath(dir), "step,loss\n1,2\n");
  Expected<LearningRateChanges> wrong = readLearningRateChanges(dir);
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error().find("learning_rates.csv: line 1 is not the header"), std::string::npos)
      << wrong.error();

  fs::remove(learningRateChangesPath(dir));
  fs::create_directory(learningRateChangesPath(dir));  // a folder where the file should be
  EXPECT_FALSE(readLearningRateChanges(dir).ok());
  fs::remove_all(dir);
}

TEST(LearningRateChangesCsv, ResumeKeepsTheChangesUpToTheCheckpoint) {
  const std::string dir = liveLrDir("resume");
  fs::create_directories(dir);
  const std::string path = learningRateChangesPath(dir);
  {
    Expected<LearningRateChangesWriter> w = LearningRateChangesWriter::open(path, false, 0);
    ASSERT_TRUE(w.ok()) << w.error();
    for (int64_t step : {5, 11, 12}) ASSERT_TRUE(w->append({step, 1e-4 * step, 1e-3}).ok());
  }
  // Checkpoint at step 10: the change sent for step 11 (paused after 10) stays, 12 goes.
  Expected<LearningRateChangesWriter> w = LearningRateChangesWriter::open(path, true, 10);
  ASSERT_TRUE(w.ok()) << w.error();
  Expected<LearningRateChanges> read = readLearningRateChanges(dir);
  ASSERT_TRUE(read.ok());
  ASSERT_EQ(read->changes.size(), 2u);
  EXPECT_EQ(read->changes.back().step, 11);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ascope
