#pragma once
// What a TrainingSession may ask of the thread that runs it (the Trainer), and nothing more: where
// to publish, and between batches whether to go on. It replaces the session's former friendship
// with Trainer, which let it write the trainer's private fields.
#include <optional>
#include <string>

#include "engine/train/event_queue.h"

namespace ascope {

/// Settings that commands changed while the run was going.
struct LiveChanges {
  std::optional<double> learning_rate;
  std::optional<int> probe_sample;
};

class TrainingHost {
 public:
  virtual EventQueue& events() = 0;
  /// Between batches: applies the pending commands and waits while paused. Returns false when
  /// the run must stop; `changes` receives what the commands changed.
  virtual bool awaitNextBatch(LiveChanges& changes) = 0;
  /// A command waits, or the run is paused: the session reads the figures still on the device
  /// before awaitNextBatch, so that a paused or stopped run's curves are complete.
  virtual bool commandWaiting() = 0;
  /// After a fault a person should look at (NaN loss, out of memory): pause before the next batch.
  virtual void pauseAfterFault() = 0;
  /// The run folder is ready: locked for this run, config and artifacts written (once per run,
  /// after preparation succeeded; a start that fails never announces its folder).
  virtual void runFolderReady(const std::string& path) = 0;

 protected:
  ~TrainingHost() = default;
};

}  // namespace ascope
