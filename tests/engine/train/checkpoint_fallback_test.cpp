// A run's checkpoint that does not load (torn by a full disk, a copy cut short) does not hide the
// other one: inference falls back and says so.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/inference/checkpoint_inference.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/train/trainer.h"
#include "tests/engine/removed_at_exit.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

using testing::removedAtExit;

/// A finished tiny sentiment run with best.pt (step 13 or 15: the validations of its two epochs)
/// and last.pt (step 15).
std::string trainedFallbackRun(const std::string& name) {
  TrainingConfig c = *makePreset(kSentimentTaskId, "tiny");
  c.out_dir = removedAtExit((fs::temp_directory_path() /
                             ("ascope_fallback_test_" + name + "_" + std::to_string(::getpid())))
                                .string());
  fs::remove_all(c.out_dir);
  c.probe_every_seconds = 1e9;
  c.max_steps = 15;
  Trainer trainer(c);
  EXPECT_TRUE(trainer.start().ok());
  trainer.wait();
  EXPECT_EQ(trainer.state(), TrainerState::kFinished);
  EXPECT_TRUE(fs::exists(c.out_dir + "/checkpoints/best.pt"));
  EXPECT_TRUE(fs::exists(c.out_dir + "/checkpoints/last.pt"));
  return c.out_dir;
}

void corrupt(const std::string& path) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << "PK\x03\x04 torn by a full disk";
}

InferenceRequest requestFrom(const std::string& run, CheckpointChoice choice) {
  InferenceRequest request;
  request.run_dir = run;
  request.checkpoint = choice;
  request.text = "a truly wonderful film";
  return request;
}

TEST(CheckpointFallback, CorruptBestFallsBackToLastAndSaysSo) {
  const std::string run = trainedFallbackRun("best");
  corrupt(run + "/checkpoints/best.pt");
  Expected<InferenceAnswer> answer = inferFromCheckpoint(requestFrom(run, CheckpointChoice::kBest));
  ASSERT_TRUE(answer.ok()) << answer.error();
  EXPECT_EQ(answer->checkpoint, run + "/checkpoints/last.pt");
  EXPECT_EQ(answer->step, 15);
  EXPECT_EQ(answer->note.rfind(run + "/checkpoints/best.pt is not a complete zip archive", 0), 0u)
      << answer->note;
  EXPECT_NE(answer->note.find("; answering with " + run + "/checkpoints/last.pt instead"),
            std::string::npos)
      << answer->note;
  EXPECT_EQ(answer->note.find('\n'), std::string::npos) << answer->note;
}

TEST(CheckpointFallback, CorruptLastFallsBackToBestForTheNewest) {
  const std::string run = trainedFallbackRun("last");
  corrupt(run + "/checkpoints/last.pt");
  Expected<InferenceAnswer> answer =
      inferFromCheckpoint(requestFrom(run, CheckpointChoice::kNewest));
  ASSERT_TRUE(answer.ok()) << answer.error();
  EXPECT_EQ(answer->checkpoint, run + "/checkpoints/best.pt");
  EXPECT_GE(answer->step, 13);
  EXPECT_NE(answer->note.find("last.pt is not a complete zip archive"), std::string::npos)
      << answer->note;
}

TEST(CheckpointFallback, BothCorruptNamesBoth) {
  const std::string run = trainedFallbackRun("both");
  corrupt(run + "/checkpoints/best.pt");
  corrupt(run + "/checkpoints/last.pt");
  Expected<InferenceAnswer> answer = inferFromCheckpoint(requestFrom(run, CheckpointChoice::kBest));
  ASSERT_FALSE(answer.ok());
  EXPECT_NE(answer.error().find("best.pt is not a complete zip archive"), std::string::npos)
      << answer.error();
  EXPECT_NE(answer.error().find("last.pt is not a complete zip archive"), std::string::npos)
      << answer.error();
}

TEST(CheckpointFallback, ReadableCheckpointNeedsNoNote) {
  const std::string run = trainedFallbackRun("fine");
  Expected<InferenceAnswer> answer = inferFromCheckpoint(requestFrom(run, CheckpointChoice::kBest));
  ASSERT_TRUE(answer.ok()) << answer.error();
  EXPECT_EQ(answer->checkpoint, run + "/checkpoints/best.pt");
  EXPECT_TRUE(answer->note.empty()) << answer->note;
}

}  // namespace
}  // namespace ascope
