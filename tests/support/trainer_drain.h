#pragma once
// Polls a started Trainer's event stream until the run has finished, handing every batch to the
// caller; a run still going after the time limit is a test failure and is stopped, so that a
// broken trainer fails one test instead of hanging the suite.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "engine/train/trainer.h"

namespace ascope {

template <typename OnBatch>
void drainUntilFinished(Trainer& trainer, OnBatch on_batch,
                        std::chrono::seconds limit = std::chrono::seconds(300)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (bool done = false; !done;) {
    done = trainer.finished();  // read before draining: the last events are already queued
    on_batch(trainer.drainEvents());
    if (std::chrono::steady_clock::now() > deadline) {
      ADD_FAILURE() << "trainer did not finish in time";
      trainer.stop();
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  trainer.wait();
}

/// What a whole run said: its validation passes, its final test, its failures and log lines, and
/// the state it ended in.
struct RunEvents {
  std::vector<EpochSummary> epochs;
  std::vector<TestEvaluation> tests;
  std::vector<Failure> failures;
  std::vector<std::string> logs;
  TrainerState state = TrainerState::kIdle;
};

/// Trains `config` to its end on a Trainer and gathers its events (a failure to start is a test
/// failure, with nothing gathered).
inline RunEvents runAndCollect(const TrainingConfig& config) {
  RunEvents got;
  Trainer trainer(config);
  const Status started = trainer.start();
  EXPECT_TRUE(started.ok()) << started.error();
  if (!started.ok()) return got;
  drainUntilFinished(trainer, [&got](EventBatch b) {
    got.epochs.insert(got.epochs.end(), b.epochs.begin(), b.epochs.end());
    if (b.test) got.tests.push_back(*b.test);
    got.failures.insert(got.failures.end(), b.failures.begin(), b.failures.end());
    for (const LogLine& line : b.logs) got.logs.push_back(line.text);
  });
  got.state = trainer.state();
  return got;
}

}  // namespace ascope
