#pragma once
// The training loop on its own thread. Threading model:
//   - Callers (GUI thread, CLI main, tests) only call the command methods below; each pushes a
//     command under a mutex and returns at once. The trainer reads them between batches.
//   - The trainer only talks back through events() (see event_queue.h); it never calls out.
//   - The model, optimizer and tensors live on the trainer thread alone.
// The destructor requests stop, wakes the thread and joins it.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "engine/core/expected.h"
#include "engine/train/event_queue.h"
#include "engine/train/training_config.h"

namespace ascope {

class TrainingSession;

class Trainer {
 public:
  explicit Trainer(TrainingConfig config);
  /// With a queue of the caller's making (e.g. small capacities in tests).
  Trainer(TrainingConfig config, std::shared_ptr<EventQueue> events);
  ~Trainer();
  Trainer(const Trainer&) = delete;
  Trainer& operator=(const Trainer&) = delete;

  /// Validates the config and starts the thread (running, or paused when `start_paused`).
  /// Loading data and building the model happen on the thread; their errors arrive as a Failure
  /// event and the state kFailed.
  Status start(bool start_paused = false);

  void pause();
  void resume();
  /// While paused: run exactly one batch, then stay paused.
  void stepOnce();
  /// Stop after the current batch; a checkpoint is written so the run can be resumed.
  void stop();
  void setLearningRate(double lr);
  void setProbeSample(int index);

  /// Blocks until the thread ends (the CLI's main uses this; the GUI never does).
  void wait();
  bool finished() const { return finished_.load(); }
  TrainerState state() const { return state_.load(); }
  /// The run folder, known once preparation is done ("" before).
  std::string runDir() const;

  std::shared_ptr<EventQueue> events() const { return events_; }

 private:
  friend class TrainingSession;
  enum class CommandKind { kPause, kResume, kStep, kStop, kSetLearningRate, kSetProbeSample };
  struct Command {
    CommandKind kind;
    double value = 0;
  };
  void push(Command command);
  /// Trainer thread: applies pending commands; while paused, waits for one. Returns false to stop.
  bool handleCommands(TrainingSession& session);
  void setState(TrainerState state, const std::string& reason = {});
  void run();

  TrainingConfig config_;
  std::shared_ptr<EventQueue> events_;
  std::thread thread_;
  std::atomic<TrainerState> state_{TrainerState::kIdle};
  std::atomic<bool> finished_{false};

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Command> commands_;  // guarded by mutex_
  std::string run_dir_;           // guarded by mutex_
  bool paused_ = false;           // trainer thread only
  int steps_granted_ = 0;         // trainer thread only
};

}  // namespace ascope
