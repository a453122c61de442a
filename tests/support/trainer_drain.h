#pragma once
// Polls a started Trainer's event stream until the run has finished, handing every batch to the
// caller; a run still going after the time limit is a test failure and is stopped, so that a
// broken trainer fails one test instead of hanging the suite.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

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

}  // namespace ascope
