// The trainer as the GUI and the CLI use it: from another thread, through commands and events.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "engine/models/text_classifier_config.h"
#include "engine/models/vision_transformer_config.h"
#include "engine/runfolder/metrics/metrics_csv_writer.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "engine/train/trainer.h"
#include "trainer_drain.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string trainerDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("ascope_trainer_test_" + name);
  fs::remove_all(dir);
  return dir.string();
}

TrainingConfig tinyTrainerConfig(const std::string& task, const std::string& name) {
  TrainingConfig c = *makePreset(task, "tiny");
  c.out_dir = trainerDir(name);
  c.probe_every_seconds = 1e9;  // probes by step count only, so runs are repeatable
  return c;
}

/// Drains until the trainer has finished; returns everything that arrived.
EventBatch trainerEvents(Trainer& trainer) {
  EventBatch all;
  drainUntilFinished(trainer, [&all](EventBatch b) {
    all.metrics.insert(all.metrics.end(), b.metrics.begin(), b.metrics.end());
    all.epochs.insert(all.epochs.end(), b.epochs.begin(), b.epochs.end());
    all.failures.insert(all.failures.end(), b.failures.begin(), b.failures.end());
    all.states.insert(all.states.end(), b.states.begin(), b.states.end());
    if (b.attention) all.attention = b.attention;
    all.head_statistics.insert(all.head_statistics.end(), b.head_statistics.begin(),
                               b.head_statistics.end());
    if (b.positional_encoding) all.positional_encoding = b.positional_encoding;
    if (b.sample) all.sample = b.sample;
  });
  return all;
}

/// Drains until at least `count` step metrics arrived (or a generous deadline passed).
std::vector<StepMetrics> drainSteps(Trainer& trainer, std::size_t count) {
  std::vector<StepMetrics> got;
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (got.size() < count && std::chrono::steady_clock::now() < deadline) {
    const std::vector<StepMetrics> more = trainer.drainEvents().metrics;
    got.insert(got.end(), more.begin(), more.end());
    std::this_thread::sleep_for(2ms);
  }
  return got;
}

void appendSteps(std::vector<StepMetrics>& to, Trainer& trainer) {
  const std::vector<StepMetrics> more = trainer.drainEvents().metrics;
  to.insert(to.end(), more.begin(), more.end());
}

/// Time for a step that should not happen to show up; a tiny batch takes a few milliseconds.
void settle() {
  std::this_thread::sleep_for(300ms);
}

double meanLoss(const std::vector<StepMetrics>& m, std::size_t from, std::size_t count) {
  double sum = 0;
  for (std::size_t i = from; i < from + count; ++i) sum += m[i].loss;
  return sum / count;
}

void expectLearns(const std::string& task, int64_t steps) {
  TrainingConfig c = tinyTrainerConfig(task, task + "_learns");
  c.max_steps = steps;
  c.epochs = 1000;
  Trainer trainer(c);
  ASSERT_TRUE(trainer.start().ok());
  const EventBatch events = trainerEvents(trainer);
  ASSERT_TRUE(events.failures.empty()) << events.failures[0].message;
  ASSERT_EQ(events.metrics.size(), static_cast<std::size_t>(steps));
  const double first = meanLoss(events.metrics, 0, 5);
  const double last = meanLoss(events.metrics, steps - 5, 5);
  EXPECT_LT(last, 0.7 * first) << task << ": loss " << first << " → " << last;
  EXPECT_EQ(trainer.state(), TrainerState::kFinished);
  // Something to look at arrived, in plain values.
  ASSERT_TRUE(events.attention != nullptr);
  ASSERT_FALSE(events.attention->samples.at(0).groups.empty());
  const AttentionGroup& g = events.attention->samples.at(0).groups[0];
  EXPECT_EQ(g.maps.size(), static_cast<std::size_t>(g.layers * g.heads));
  EXPECT_EQ(g.maps[0].rows, static_cast<int>(g.row_labels.size()));
  ASSERT_TRUE(events.positional_encoding.has_value());
  EXPECT_EQ(events.positional_encoding->values.size(),
            static_cast<std::size_t>(events.positional_encoding->positions *
                                     events.positional_encoding->dims));
  ASSERT_TRUE(events.sample.has_value());
  EXPECT_FALSE(events.sample->expected.empty());
  EXPECT_FALSE(events.epochs.empty());
}

TEST(Trainer, TinyVitLearns) {
  expectLearns(kImageClassificationTaskId, 150);
}
TEST(Trainer, TinySentimentLearns) {
  expectLearns(kSentimentTaskId, 150);
}
TEST(Trainer, TinyTranslationLearns) {
  expectLearns(kTranslationTaskId, 60);
}

TEST(Trainer, TranslationReportsBleuAndThreeAttentionGroups) {
  TrainingConfig c = tinyTrainerConfig(kTranslationTaskId, "translate_groups");
  c.max_steps = 13;  // one epoch of the tiny data
  Trainer trainer(c);
  ASSERT_TRUE(trainer.start().ok());
  const EventBatch events = trainerEvents(trainer);
  ASSERT_FALSE(events.epochs.empty());
  EXPECT_TRUE(events.epochs.back().figures.has("bleu"));
  EXPECT_TRUE(events.epochs.back().figures.has("wer"));
  ASSERT_TRUE(events.attention != nullptr);
  ASSERT_EQ(events.attention->samples.at(0).groups.size(), 3u);
  const AttentionGroup& cross = events.attention->samples.at(0).groups[2];
  EXPECT_EQ(cross.name, "cross");
  EXPECT_EQ(cross.col_labels.front(), "[SOS]");
  EXPECT_EQ(cross.col_labels.back(), "[EOS]");
  const AttentionGroup& decoder = events.attention->samples.at(0).groups[1];
  // Causal: query 0 sees only key 0.
  const AttentionMap& m = decoder.map(0, 0);
  for (int k = 1; k < m.cols; ++k) EXPECT_EQ(m.values[k], 0.0f);
}

TEST(Trainer, PauseStepResumeStopFromAnotherThread) {
  TrainingConfig c = tinyTrainerConfig(kSentimentTaskId, "commands");
  c.epochs = 1000;
  Trainer trainer(c);
  ASSERT_TRUE(trainer.start(/*start_paused=*/true).ok());
  auto wait_for = [&](TrainerState s) {
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (trainer.state() != s && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(2ms);
    }
    return trainer.state() == s;
  };
  ASSERT_TRUE(wait_for(TrainerState::kPaused));
  trainer.drainEvents();
  for (int i = 0; i < 3; ++i) trainer.stepOnce();
  std::vector<StepMetrics> metrics = drainSteps(trainer, 3);
  settle();
  appendSteps(metrics, trainer);
  ASSERT_EQ(metrics.size(), 3u);  // exactly three batches, then paused again
  EXPECT_EQ(metrics.back().step, 3);
  EXPECT_EQ(trainer.state(), TrainerState::kPaused);

  trainer.resume();
  ASSERT_TRUE(wait_for(TrainerState::kRunning));
  std::vector<StepMetrics> running = drainSteps(trainer, 2);
  trainer.pause();
  ASSERT_TRUE(wait_for(TrainerState::kPaused));
  // The pause may land before another step: the newest step is the last of either drain.
  appendSteps(running, trainer);
  ASSERT_FALSE(running.empty());
  const int64_t steps_at_pause = running.back().step;
  EXPECT_GT(steps_at_pause, 3);
  settle();
  EXPECT_TRUE(trainer.drainEvents().metrics.empty()) << "no steps while paused";

  trainer.setLearningRate(1e-5);
  trainer.stepOnce();
  std::vector<StepMetrics> after = drainSteps(trainer, 1);
  settle();
  appendSteps(after, trainer);
  ASSERT_EQ(after.size(), 1u);
  EXPECT_DOUBLE_EQ(after[0].lr, 1e-5);

  trainer.stop();
  trainer.wait();
  EXPECT_EQ(trainer.state(), TrainerState::kStopped);
  EXPECT_TRUE(fs::exists(trainer.runDir() + "/checkpoints/last.pt"));
}

TEST(Trainer, UndrainedQueueNeverBlocksTraining) {
  TrainingConfig c = tinyTrainerConfig(kSentimentTaskId, "undrained");
  c.max_steps = 120;
  // Far fewer slots than events: a queue that waited for room, or grew, would show here.
  auto queue = std::make_shared<EventQueue>(/*metric_capacity=*/16, /*log_capacity=*/4);
  Trainer trainer(c, queue);
  ASSERT_TRUE(trainer.start().ok());
  const auto deadline = std::chrono::steady_clock::now() + 120s;
  while (!trainer.finished() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(10ms);  // nobody drains
  }
  ASSERT_TRUE(trainer.finished());
  EXPECT_EQ(trainer.state(), TrainerState::kFinished);
  const EventBatch left = queue->drain();
  ASSERT_EQ(left.metrics.size(), 16u);
  EXPECT_EQ(left.metrics.back().step, 120);  // the newest are kept
  EXPECT_LE(left.logs.size(), 4u);
}

TEST(EventQueue, BoundedCoalescingAndLatestWins) {
  EventQueue queue(/*metric_capacity=*/100, /*log_capacity=*/10);
  for (int i = 1; i <= 10000; ++i) {
    StepMetrics m;
    m.step = i;
    queue.pushMetrics(m);
    queue.pushLog({Severity::kInfo, "line " + std::to_string(i)});
    auto s = std::make_shared<ProbeSet>();
    s->step = i;
    queue.publishAttention(s);
  }
  EventBatch b = queue.drain();
  ASSERT_EQ(b.metrics.size(), 100u);
  EXPECT_EQ(b.metrics.back().step, 10000);  // the newest always arrives
  EXPECT_EQ(b.dropped_metrics, 9900u);
  EXPECT_EQ(b.logs.size(), 10u);
  ASSERT_TRUE(b.attention != nullptr);
  EXPECT_EQ(b.attention->step, 10000);
  EXPECT_TRUE(queue.drain().empty());
}

std::vector<std::string> trainerTrainRows(const std::string& run_dir) {
  std::ifstream in(run_dir + "/metrics.csv");
  std::vector<std::string> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.find(",train,") != std::string::npos) {
      // step,epoch,split,loss,accuracy,lr — samples/s differs between runs and is cut off.
      std::size_t cut = 0;
      for (int commas = 0; commas < 6; ++commas) cut = line.find(',', cut) + 1;
      rows.push_back(line.substr(0, cut));
    }
  }
  return rows;
}

TEST(Trainer, ResumeContinuesExactly) {
  TrainingConfig whole = tinyTrainerConfig(kSentimentTaskId, "resume_whole");
  whole.max_steps = 30;
  whole.epochs = 1000;
  whole.optimization.schedule = "cosine";
  whole.optimization.warmup_steps = 5;
  TextClassifierConfig& text = whole.task_settings.as<TextClassifierConfig>();
  text.dropout = 0.1;  // dropout must replay exactly too, and so must the skipped layers
  text.layer_drop = 0.5, text.residual_gates = true, text.positions_in_pool = false;
  {
    Trainer trainer(whole);
    ASSERT_TRUE(trainer.start().ok());
    trainerEvents(trainer);
  }
  TrainingConfig interrupted = whole;
  interrupted.out_dir = trainerDir("resume_parts");
  interrupted.interrupt_at_step = 17;
  {
    Trainer trainer(interrupted);
    ASSERT_TRUE(trainer.start().ok());
    trainerEvents(trainer);
    EXPECT_EQ(trainer.state(), TrainerState::kStopped);
  }
  TrainingConfig resumed = interrupted;
  resumed.interrupt_at_step = 0;
  resumed.resume = true;
  {
    Trainer trainer(resumed);
    ASSERT_TRUE(trainer.start().ok());
    const EventBatch events = trainerEvents(trainer);
    ASSERT_TRUE(events.failures.empty()) << events.failures[0].message;
    ASSERT_FALSE(events.metrics.empty());
    EXPECT_EQ(events.metrics.front().step, 18);
  }
  const auto expected = trainerTrainRows(whole.out_dir);
  const auto actual = trainerTrainRows(interrupted.out_dir);
  ASSERT_EQ(expected.size(), 30u);
  EXPECT_EQ(actual, expected);
}

TEST(Trainer, BadDataPathFailsWithAMessageAndTheThreadEnds) {
  TrainingConfig c = tinyTrainerConfig(kTranslationTaskId, "bad_path");
  c.data = "/nonexistent/corpus.tsv";
  Trainer trainer(c);
  ASSERT_TRUE(trainer.start().ok());
  const EventBatch events = trainerEvents(trainer);
  ASSERT_EQ(events.failures.size(), 1u);
  EXPECT_NE(events.failures[0].message.find("/nonexistent/corpus.tsv"), std::string::npos)
      << events.failures[0].message;
  EXPECT_EQ(trainer.state(), TrainerState::kFailed);
}

TEST(Trainer, NonFiniteLossStopsTheCliAndPausesTheGuiKeepingTheCheckpoint) {
  TrainingConfig c = tinyTrainerConfig(kSentimentTaskId, "nan_cli");
  c.epochs = 1000;
  c.max_steps = 100;
  c.checkpoint_every_steps = 10;
  c.inject_nan_at_step = 15;
  {
    Trainer trainer(c);  // CLI behaviour: stop
    ASSERT_TRUE(trainer.start().ok());
    const EventBatch events = trainerEvents(trainer);
    ASSERT_EQ(events.failures.size(), 1u);
    EXPECT_NE(events.failures[0].message.find("loss is not finite at step 15"), std::string::npos)
        << events.failures[0].message;
    ASSERT_FALSE(events.metrics.empty());
    EXPECT_EQ(events.metrics.back().step, 14);
    EXPECT_EQ(trainer.state(), TrainerState::kFailed);
  }
  // The last checkpoint before the fault (end of epoch 1, step 13) is intact and resumes.
  TrainingConfig resumed = c;
  resumed.resume = true;
  resumed.inject_nan_at_step = 0;
  resumed.max_steps = 20;
  {
    Trainer trainer(resumed);
    ASSERT_TRUE(trainer.start().ok());
    const EventBatch events = trainerEvents(trainer);
    ASSERT_TRUE(events.failures.empty()) << events.failures[0].message;
    ASSERT_FALSE(events.metrics.empty());
    EXPECT_EQ(events.metrics.front().step, 14);
  }

  TrainingConfig gui = tinyTrainerConfig(kSentimentTaskId, "nan_gui");
  gui.epochs = 1000;
  gui.stop_on_nonfinite = false;
  gui.inject_nan_at_step = 5;
  Trainer trainer(gui);  // GUI behaviour: pause, stay alive, carry on when resumed
  ASSERT_TRUE(trainer.start().ok());
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (trainer.state() != TrainerState::kPaused && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(2ms);
  }
  ASSERT_EQ(trainer.state(), TrainerState::kPaused);
  EventBatch paused = trainer.drainEvents();
  ASSERT_EQ(paused.failures.size(), 1u);
  ASSERT_FALSE(paused.metrics.empty());
  EXPECT_EQ(paused.metrics.back().step, 4);
  trainer.stepOnce();
  std::vector<StepMetrics> after = drainSteps(trainer, 1);
  settle();
  appendSteps(after, trainer);
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(after.back().step, 6);  // step 5's batch was skipped
  trainer.stop();
}

TEST(Trainer, InvalidConfigIsRefusedBeforeStarting) {
  TrainingConfig c = tinyTrainerConfig(kImageClassificationTaskId, "invalid");
  c.task_settings.as<VisionTransformerConfig>().patch_size = 5;
  Trainer trainer(c);
  const Status s = trainer.start();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), "patch_size (5) must divide image_size (32)");
}

}  // namespace
}  // namespace ascope
