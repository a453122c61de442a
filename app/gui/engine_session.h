#pragma once
// The engine as the bridge sees it: one training run (a Trainer) or a bare event queue that a test
// fills (the fake engine). Plain C++ and free of events.h, so Qt-side files may include it.
//
// Threading: every method is called on the GUI thread and returns at once. Commands are queued to
// the trainer thread; drain() swaps the queue's contents out under its mutex.
#include <memory>
#include <string>

#include "app/gui/gui_batch.h"
#include "engine/core/expected.h"
#include "engine/train/training_config.h"

namespace ascope {

class EventQueue;
class Trainer;

class EngineSession {
 public:
  /// Starts training `config` on its own thread (paused before the first batch when
  /// `start_paused`); the error names the bad setting when the config does not validate.
  static Expected<std::unique_ptr<EngineSession>> startTraining(const TrainingConfig& config,
                                                                bool start_paused = false);
  /// A session without a trainer that drains `queue` (tests replay scripted events into it).
  static std::unique_ptr<EngineSession> replay(std::shared_ptr<EventQueue> queue);

  /// Requests stop and joins the trainer thread (only at shutdown or once it has finished).
  ~EngineSession();
  EngineSession(const EngineSession&) = delete;
  EngineSession& operator=(const EngineSession&) = delete;

  void pause();
  void resume();
  void stepOnce();
  void stop();
  void setLearningRate(double lr);

  /// Everything published since the last drain, converted for the panels.
  GuiBatch drain();
  /// The trainer thread has ended (always false for a replay session: tests end it).
  bool finished() const;
  RunState state() const;
  /// The run folder once preparation is done, "" before and for replays.
  std::string runDir() const;
  const TrainingConfig& config() const { return config_; }

 private:
  EngineSession(std::unique_ptr<Trainer> trainer, std::shared_ptr<EventQueue> queue,
                TrainingConfig config);

  std::unique_ptr<Trainer> trainer_;  // null for replays
  std::shared_ptr<EventQueue> queue_;
  TrainingConfig config_;
};

}  // namespace ascope
