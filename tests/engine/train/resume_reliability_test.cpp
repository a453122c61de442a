// Resuming a run loses nothing and touches nothing it should not: it continues from
// best.pt when last.pt is missing or damaged, refuses a checkpoint of another model before any
// file changes, keeps rows it cannot read, never follows a link out of the run folder, and does
// not repeat a file that a run's config.json points to.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/models/text_classifier_config.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/train/trainer.h"
#include "tests/data/fifo_fixture.h"
#include "tests/engine/removed_at_exit.h"
#include "tests/support/test_files.h"
#include "tests/support/trainer_drain.h"

namespace ascope {
namespace {

using testing::contains;
using testing::readFile;
using testing::writeFile;

namespace fs = std::filesystem;

struct Outcome {
  std::vector<StepMetrics> steps;
  std::vector<std::string> failures;
  std::string log;  ///< every log line, one per line
  TrainerState state = TrainerState::kIdle;
};

Outcome trainOutcome(const TrainingConfig& config) {
  Outcome out;
  Trainer trainer(config);
  EXPECT_TRUE(trainer.start().ok());
  drainUntilFinished(trainer, [&out](const EventBatch& b) {
    out.steps.insert(out.steps.end(), b.metrics.begin(), b.metrics.end());
    for (const Failure& f : b.failures) out.failures.push_back(f.message);
    for (const LogLine& line : b.logs) out.log += line.text + "\n";
  });
  out.state = trainer.state();
  return out;
}

/// A tiny sentiment run stopped after step 8, with last.pt (step 8) and best.pt (an evaluation
/// every 2 steps, the first always best).
TrainingConfig stoppedRun(const std::string& name) {
  TrainingConfig c = *makePreset(kSentimentTaskId, "tiny");
  c.out_dir = testing::freshTempPath("ascope_resume_test_" + name);
  c.probe_every_seconds = 1e9;
  c.probe_every_steps = 2;
  c.epochs = 1000;
  c.max_steps = 12;
  c.eval_every_steps = 2;
  c.interrupt_at_step = 8;
  const Outcome first = trainOutcome(c);
  EXPECT_EQ(first.state, TrainerState::kStopped);
  EXPECT_TRUE(first.failures.empty()) << first.failures.front();
  c.interrupt_at_step = 0;
  c.resume = true;
  return c;
}

std::string checkpoint(const TrainingConfig& c, const std::string& name) {
  return c.out_dir + "/checkpoints/" + name + ".pt";
}

TEST(ResumeReliability, ContinuesFromBestWhenLastIsMissing) {
  const TrainingConfig c = stoppedRun("no_last");
  ASSERT_TRUE(fs::exists(checkpoint(c, "best")));
  fs::remove(checkpoint(c, "last"));  // as a full disk that refused the first last.pt leaves it
  const Outcome resumed = trainOutcome(c);
  ASSERT_TRUE(resumed.failures.empty()) << resumed.failures.front();
  EXPECT_EQ(resumed.state, TrainerState::kFinished);
  EXPECT_TRUE(contains(
      resumed.log, checkpoint(c, "last") + " is missing; resuming from " + checkpoint(c, "best")))
      << resumed.log;
  ASSERT_FALSE(resumed.steps.empty());
  EXPECT_LE(resumed.steps.front().step, 9);  // after best's step: those after it are trained again
  EXPECT_EQ(resumed.steps.back().step, 12);
}

TEST(ResumeReliability, ContinuesFromBestWhenLastIsDamaged) {
  const TrainingConfig c = stoppedRun("damaged_last");
  std::string bytes = readFile(checkpoint(c, "last"));
  ASSERT_GT(bytes.size(), 4000u);
  // Two runs of bytes in the middle XORed: weight records, as the audit did.
  for (std::size_t i = bytes.size() / 3; i < bytes.size() / 3 + 64; ++i) bytes[i] ^= 0x5a;
  for (std::size_t i = bytes.size() / 2; i < bytes.size() / 2 + 64; ++i) bytes[i] ^= 0x5a;
  writeFile(checkpoint(c, "last"), bytes);
  const Outcome resumed = trainOutcome(c);
  ASSERT_TRUE(resumed.failures.empty()) << resumed.failures.front();
  EXPECT_EQ(resumed.state, TrainerState::kFinished);
  EXPECT_TRUE(contains(resumed.log, checkpoint(c, "last") + " is damaged")) << resumed.log;
  EXPECT_TRUE(contains(resumed.log, "resuming from " + checkpoint(c, "best"))) << resumed.log;
}

TEST(ResumeReliability, ACheckpointOfAnotherModelIsRefusedBeforeAnyFileChanges) {
  const TrainingConfig c = stoppedRun("other_model");
  TrainingConfig other = *makePreset(kSentimentTaskId, "tiny");
  other.out_dir = testing::freshTempPath("ascope_resume_test_other_model_source");
  other.task_settings.as<TextClassifierConfig>().d_ff += 8;
  other.max_steps = 1;
  other.probe_every_seconds = 1e9;
  ASSERT_EQ(trainOutcome(other).state, TrainerState::kFinished);
  fs::copy_file(checkpoint(other, "last"), checkpoint(c, "last"),
                fs::copy_options::overwrite_existing);
  fs::remove(checkpoint(c, "best"));
  std::vector<std::string> before;
  for (const char* file : {"/metrics.csv", "/head_stats.csv", "/config.json"}) {
    before.push_back(readFile(c.out_dir + file));
  }
  const Outcome resumed = trainOutcome(c);
  ASSERT_EQ(resumed.failures.size(), 1u);
  EXPECT_EQ(resumed.state, TrainerState::kFailed);
  // Named, not a LibTorch shape error from the first forward pass ("shape '[1, 40, 2, 16]' is
  // invalid") after metrics.csv and head_stats.csv had been cut.
  EXPECT_TRUE(contains(resumed.failures[0], checkpoint(c, "last") + ": not loaded: its tensor \""))
      << resumed.failures[0];
  EXPECT_TRUE(contains(resumed.failures[0], "has shape [")) << resumed.failures[0];
  EXPECT_TRUE(contains(resumed.failures[0], "a checkpoint of another model"))
      << resumed.failures[0];
  std::size_t i = 0;
  for (const char* file : {"/metrics.csv", "/head_stats.csv", "/config.json"}) {
    EXPECT_EQ(readFile(c.out_dir + file), before[i++]) << file << " changed";
  }
}

TEST(ResumeReliability, RowsThatCannotBeReadAreKeptAndSaid) {
  const TrainingConfig c = stoppedRun("malformed_rows");
  std::string metrics = readFile(c.out_dir + "/metrics.csv");
  const std::string edited = "3,1,train,0.69x,0.5,0.001,100,,,,,,\n";
  metrics.insert(metrics.find("\n4,1,train") + 1, edited);  // a hand edit among the rows
  writeFile(c.out_dir + "/metrics.csv", metrics);
  writeFile(c.out_dir + "/learning_rates.csv", "step,lr,previous_lr\n2,nan,0.001\n");
  const Outcome resumed = trainOutcome(c);
  ASSERT_TRUE(resumed.failures.empty()) << resumed.failures.front();
  EXPECT_TRUE(contains(readFile(c.out_dir + "/metrics.csv"), edited));
  EXPECT_TRUE(contains(readFile(c.out_dir + "/learning_rates.csv"), "2,nan,0.001\n"));
  EXPECT_TRUE(contains(resumed.log, "/metrics.csv: line ")) << resumed.log;
  EXPECT_TRUE(contains(resumed.log, "is not a row this program writes, kept as written"))
      << resumed.log;
  EXPECT_TRUE(contains(resumed.log, "/learning_rates.csv: line 2 is not a row")) << resumed.log;
}

TEST(ResumeReliability, ALinkOutOfTheRunFolderIsRefused) {
  const TrainingConfig c = stoppedRun("linked_log");
  const std::string outside = testing::freshTempPath("ascope_resume_test_outside.txt");
  writeFile(outside, "a file of the user's\n");
  fs::remove(c.out_dir + "/log.txt");
  fs::create_symlink(outside, c.out_dir + "/log.txt");
  const Outcome resumed = trainOutcome(c);
  ASSERT_EQ(resumed.failures.size(), 1u);
  EXPECT_TRUE(
      contains(resumed.failures[0], c.out_dir + "/log.txt is a symbolic link (to " + outside + ")"))
      << resumed.failures[0];
  EXPECT_EQ(readFile(outside), "a file of the user's\n");
}

TEST(ResumeReliability, AFileTheConfigPointsToIsNamedNotRepeated) {
  const TrainingConfig c = stoppedRun("data_elsewhere");
  const std::string secret = testing::freshTempPath("ascope_resume_test_secret.txt");
  writeFile(secret, "root:top-secret-hash:0:0:root:/root:/bin/bash\n");
  std::string config = readFile(c.out_dir + "/config.json");
  const std::string builtin = "\"data\": \"builtin\"";
  ASSERT_TRUE(contains(config, builtin)) << config;
  config.replace(config.find(builtin), builtin.size(), "\"data\": \"" + secret + "\"");
  writeFile(c.out_dir + "/config.json", config);
  TrainingConfig resumed_config = c;
  resumed_config.data = secret;  // as the CLI reads it from config.json
  const Outcome resumed = trainOutcome(resumed_config);
  ASSERT_EQ(resumed.failures.size(), 1u);
  EXPECT_FALSE(contains(resumed.failures[0], "top-secret")) << resumed.failures[0];
  EXPECT_TRUE(contains(resumed.failures[0], "with the settings of " + c.out_dir +
                                                "/config.json (\"data\": \"" + secret + "\")"))
      << resumed.failures[0];
}

TEST(ResumeReliability, AFifoInPlaceOfTheCheckpointIsNamed) {
  const TrainingConfig c = stoppedRun("fifo_checkpoint");
  fs::remove(checkpoint(c, "last"));
  fs::remove(checkpoint(c, "best"));
  testing::Fifo fifo(checkpoint(c, "last"));
  ASSERT_TRUE(fifo.created());
  const Outcome resumed = trainOutcome(c);
  ASSERT_EQ(resumed.failures.size(), 1u);
  EXPECT_TRUE(
      contains(resumed.failures[0], checkpoint(c, "last") + " is not a regular file (a FIFO)"))
      << resumed.failures[0];
}

TEST(ResumeReliability, MoreThreadsThanCpusAreCappedAndSaid) {
  TrainingConfig c = *makePreset(kSentimentTaskId, "tiny");
  c.out_dir = testing::freshTempPath("ascope_resume_test_threads");
  c.max_steps = 1;
  c.probe_every_seconds = 1e9;
  c.threads = 1024;
  const Outcome run = trainOutcome(c);
  ASSERT_TRUE(run.failures.empty()) << run.failures.front();
  EXPECT_TRUE(contains(run.log, "threads 1024: this process may run on ")) << run.log;
}

}  // namespace
}  // namespace ascope
