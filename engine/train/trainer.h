#pragma once
// The training loop on its own thread (docs/ARCHITECTURE.md, "Threads"):
//   - Callers (GUI thread, CLI main, tests) only call the RunControl methods; each pushes a
//     command under a mutex and returns at once. The trainer reads them between batches.
//   - The trainer only talks back through its EventQueue; it never calls out.
//   - The model, optimizer and tensors live on the trainer thread alone (in TrainingSession,
//     which sees the trainer only as a TrainingHost).
// The destructor requests stop, wakes the thread and joins it.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "engine/distributed/job_rank.h"
#include "engine/train/event_queue.h"
#include "engine/train/training_host.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/run_control.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {

class Trainer final : public RunControl, private TrainingHost {
 public:
  explicit Trainer(TrainingConfig config);
  /// With a queue of the caller's making (e.g. small capacities in tests).
  Trainer(TrainingConfig config, std::shared_ptr<EventQueue> events);
  /// With `job`, one rank of a data-parallel job (engine/distributed/job_rank.h): rank 0 writes
  /// the run folder; the other ranks train their share of each batch and take rank 0's settings.
  Trainer(TrainingConfig config, std::optional<JobRank> job);
  ~Trainer() override;
  Trainer(const Trainer&) = delete;
  Trainer& operator=(const Trainer&) = delete;

  /// Validates the config and starts the thread (running, or paused when `start_paused`).
  /// Loading data and building the model happen on the thread; their errors arrive as a Failure
  /// event and the state kFailed.
  Status start(bool start_paused = false);

  void pause() override;
  void resume() override;
  void stepOnce() override;
  void stop() override;
  void setLearningRate(double lr) override;
  void setProbeSample(int index) override;
  EventBatch drainEvents() override { return events_->drain(); }
  bool finished() const override { return finished_.load(); }

  /// Blocks until the thread ends (the CLI's main uses this; the GUI never does).
  void wait();
  TrainerState state() const { return state_.load(); }
  /// The run folder, known once preparation is done ("" before).
  std::string runDir() const;

 private:
  enum class CommandKind { kPause, kResume, kStep, kStop, kSetLearningRate, kSetProbeSample };
  struct Command {
    CommandKind kind;
    double learning_rate = 0;  ///< kSetLearningRate
    int probe_sample = 0;      ///< kSetProbeSample
  };
  void push(Command command);
  void setState(TrainerState state, const std::string& reason = {});
  void run();

  // TrainingHost: called by the session on the trainer thread.
  EventQueue& events() override { return *events_; }
  bool awaitNextBatch(LiveChanges& changes) override;
  bool commandWaiting() override;
  void pauseAfterFault() override { paused_ = true; }
  void runFolderReady(const std::string& path) override;

  TrainingConfig config_;
  std::optional<JobRank> job_;
  std::shared_ptr<EventQueue> events_;
  std::thread thread_;
  std::atomic<TrainerState> state_{TrainerState::kIdle};
  std::atomic<bool> finished_{false};

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Command> commands_;  // guarded by mutex_
  std::string run_dir_;           // guarded by mutex_
  bool paused_ = false;           // trainer thread only (set by start() before the thread runs)
  int steps_granted_ = 0;         // trainer thread only
};

}  // namespace ascope
