// One writer per run folder: the lock file, the folder a new run claims (and gives back when its
// start fails), and two trainers on one folder in one process.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "engine/core/run_folder_lock.h"
#include "engine/runfolder/run_folder.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/train/trainer.h"
#include "tests/engine/removed_at_exit.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string lockDir(const std::string& name) {
  return testing::freshTempPath("ascope_lock_test_" + name);
}

/// Waits for the trainer's end; the failures that arrived.
std::vector<Failure> failuresUntilFinished(Trainer& trainer) {
  std::vector<Failure> failures;
  const auto deadline = std::chrono::steady_clock::now() + 120s;
  for (bool done = false; !done && std::chrono::steady_clock::now() < deadline;) {
    done = trainer.finished();
    EventBatch batch = trainer.drainEvents();
    failures.insert(failures.end(), batch.failures.begin(), batch.failures.end());
    std::this_thread::sleep_for(5ms);
  }
  EXPECT_TRUE(trainer.finished()) << "the trainer did not finish in time";
  trainer.stop();
  trainer.wait();
  return failures;
}

void waitForState(const Trainer& trainer, TrainerState state) {
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (trainer.state() != state && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(2ms);
  }
  ASSERT_EQ(trainer.state(), state);
}

TrainingConfig tinyLockedRun(const std::string& out_dir) {
  TrainingConfig c = *makePreset(kSentimentTaskId, "tiny");
  c.out_dir = out_dir;
  c.probe_every_seconds = 1e9;
  c.max_steps = 5;
  return c;
}

TEST(RunFolderLock, SecondLockIsRefusedWithTheHolderUntilReleased) {
  const std::string dir = lockDir("second");
  fs::create_directories(dir);
  Expected<RunFolderLock> first = RunFolderLock::acquire(dir);
  ASSERT_TRUE(first.ok()) << first.error();
  EXPECT_TRUE(fs::exists(dir + "/.lock"));
  // A second open file description in this very process: flock() refuses it like another process.
  Expected<RunFolderLock> second = RunFolderLock::acquire(dir);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(
      second.error().rfind(
          "run folder " + dir + " is in use by pid " + std::to_string(::getpid()) + " since ", 0),
      0u)
      << second.error();
  EXPECT_NE(second.error().find("(host "), std::string::npos) << second.error();
  first->release();
  EXPECT_FALSE(fs::exists(dir + "/.lock"));
  Expected<RunFolderLock> third = RunFolderLock::acquire(dir);
  EXPECT_TRUE(third.ok()) << third.error();
}

TEST(RunFolderLock, StaleTextOfADeadHolderDoesNotBlock) {
  const std::string dir = lockDir("stale");
  fs::create_directories(dir);
  // What a killed holder leaves: its text, and no flock (the kernel dropped it with the process).
  std::ofstream(dir + "/.lock") << "pid 999999\nhost elsewhere\nsince 2020-01-01 00:00:00\n";
  Expected<RunFolderLock> lock = RunFolderLock::acquire(dir);
  ASSERT_TRUE(lock.ok()) << lock.error();
  std::ifstream in(dir + "/.lock");
  std::string first_line;
  std::getline(in, first_line);
  EXPECT_EQ(first_line, "pid " + std::to_string(::getpid()));
}

TEST(RunFolderWriter, FailedStartRemovesOnlyWhatItAdded) {
  // A folder of the user's with a file in it: after a failed start it holds exactly that again.
  const std::string dir = lockDir("keep_mine");
  fs::create_directories(dir);
  std::ofstream(dir + "/notes.txt") << "mine";
  Expected<RunFolderWriter> writer = RunFolderWriter::createNew(dir, kSentimentTaskId);
  ASSERT_TRUE(writer.ok()) << writer.error();
  ASSERT_TRUE(writer->folder().writeConfig(tinyLockedRun(dir)).ok());
  std::ofstream(dir + "/log.txt") << "started";
  writer->discardNewRun();
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(dir)) {
    left.push_back(entry.path().filename().string());
  }
  EXPECT_EQ(left, std::vector<std::string>{"notes.txt"});

  // A folder it made itself goes altogether.
  const std::string made = lockDir("made");
  Expected<RunFolderWriter> fresh = RunFolderWriter::createNew(made, kSentimentTaskId);
  ASSERT_TRUE(fresh.ok()) << fresh.error();
  ASSERT_TRUE(fs::is_directory(made + "/checkpoints"));
  fresh->discardNewRun();
  EXPECT_FALSE(fs::exists(made));
}

TEST(RunFolderWriter, ResumeSweepsTempFilesOfADeadWriter) {
  const std::string dir = lockDir("sweep");
  {
    Expected<RunFolderWriter> writer = RunFolderWriter::createNew(dir, kSentimentTaskId);
    ASSERT_TRUE(writer.ok()) << writer.error();
    ASSERT_TRUE(writer->folder().writeConfig(tinyLockedRun(dir)).ok());
  }
  std::ofstream(dir + "/checkpoints/last.pt.tmp.4242.7") << "torn";
  std::ofstream(dir + "/checkpoints/last.pt.tmp") << "torn, older naming";
  std::ofstream(dir + "/checkpoints/last.pt.tmp.notes") << "not ours";
  Expected<RunFolderWriter> resumed = RunFolderWriter::openForResume(dir);
  ASSERT_TRUE(resumed.ok()) << resumed.error();
  EXPECT_FALSE(fs::exists(dir + "/checkpoints/last.pt.tmp.4242.7"));
  EXPECT_FALSE(fs::exists(dir + "/checkpoints/last.pt.tmp"));
  EXPECT_TRUE(fs::exists(dir + "/checkpoints/last.pt.tmp.notes"));
  EXPECT_TRUE(fs::exists(dir + "/config.json"));
}

TEST(Trainer, SecondTrainerOnTheSameFolderIsRefusedWhileTheFirstRuns) {
  const std::string dir = lockDir("two_trainers");
  Trainer first(tinyLockedRun(dir));
  ASSERT_TRUE(first.start(/*start_paused=*/true).ok());
  waitForState(first, TrainerState::kPaused);  // prepared: folder locked, config written

  // A second run resuming it: refused by the lock, naming the holder.
  TrainingConfig resume = tinyLockedRun(dir);
  resume.resume = true;
  Trainer resumer(resume);
  ASSERT_TRUE(resumer.start().ok());
  std::vector<Failure> failures = failuresUntilFinished(resumer);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(
      failures[0].message.rfind(
          "run folder " + dir + " is in use by pid " + std::to_string(::getpid()) + " since ", 0),
      0u)
      << failures[0].message;

  // A new run into it: refused too (its config.json is there already).
  Trainer second(tinyLockedRun(dir));
  ASSERT_TRUE(second.start().ok());
  failures = failuresUntilFinished(second);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_NE(failures[0].message.find("already holds a run"), std::string::npos)
      << failures[0].message;
  // The refused ones took nothing away from the running one.
  EXPECT_TRUE(fs::exists(dir + "/config.json"));
  EXPECT_TRUE(fs::exists(dir + "/.lock"));

  first.stop();
  first.wait();
  EXPECT_EQ(first.state(), TrainerState::kStopped);
  EXPECT_FALSE(fs::exists(dir + "/.lock"));
  Trainer after(resume);
  ASSERT_TRUE(after.start().ok());
  failures = failuresUntilFinished(after);
  EXPECT_TRUE(failures.empty()) << failures[0].message;
  EXPECT_EQ(after.state(), TrainerState::kFinished);
}

TEST(Trainer, FailedDataLoadLeavesNoRunFolderBehind) {
  const std::string dir = lockDir("bad_data");
  TrainingConfig c = tinyLockedRun(dir);
  c.data = "/nonexistent/reviews.csv";
  {
    Trainer trainer(c);
    ASSERT_TRUE(trainer.start().ok());
    const std::vector<Failure> failures = failuresUntilFinished(trainer);
    ASSERT_EQ(failures.size(), 1u);
    EXPECT_NE(failures[0].message.find("/nonexistent/reviews.csv"), std::string::npos)
        << failures[0].message;
    EXPECT_TRUE(trainer.runDir().empty());
  }
  EXPECT_FALSE(fs::exists(dir));
  // The same --out works for the next attempt.
  Trainer retry(tinyLockedRun(dir));
  ASSERT_TRUE(retry.start().ok());
  const std::vector<Failure> failures = failuresUntilFinished(retry);
  EXPECT_TRUE(failures.empty()) << failures[0].message;
  EXPECT_EQ(retry.state(), TrainerState::kFinished);
  EXPECT_TRUE(fs::exists(dir + "/checkpoints/last.pt"));
}

}  // namespace
}  // namespace ascope
