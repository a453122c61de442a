#include "engine/train/trainer.h"

#include <exception>

#include "engine/tasks/registry/task_registry.h"
#include "engine/train/training_session.h"

namespace ascope {

Trainer::Trainer(TrainingConfig config)
    : Trainer(std::move(config), std::make_shared<EventQueue>()) {}

Trainer::Trainer(TrainingConfig config, std::shared_ptr<EventQueue> events)
    : config_(std::move(config)), events_(std::move(events)) {}

Trainer::Trainer(TrainingConfig config, std::optional<JobRank> job)
    : config_(std::move(config)), job_(std::move(job)), events_(std::make_shared<EventQueue>()) {}

Trainer::~Trainer() {
  stop();
  if (thread_.joinable()) thread_.join();
}

Status Trainer::start(bool start_paused) {
  if (thread_.joinable()) return Error{"the trainer is already running"};
  if (Status s = validateConfig(config_); !s.ok()) return s;
  paused_ = start_paused;
  thread_ = std::thread([this] { run(); });
  return {};
}

void Trainer::push(Command command) {
  {
    std::lock_guard lock(mutex_);
    commands_.push_back(command);
  }
  wake_.notify_all();
}

void Trainer::pause() {
  push({CommandKind::kPause});
}
void Trainer::resume() {
  push({CommandKind::kResume});
}
void Trainer::stepOnce() {
  push({CommandKind::kStep});
}
void Trainer::stop() {
  push({CommandKind::kStop});
}
void Trainer::setLearningRate(double lr) {
  push({CommandKind::kSetLearningRate, lr, 0});
}
void Trainer::setProbeSample(int index) {
  push({CommandKind::kSetProbeSample, 0, index});
}

void Trainer::wait() {
  if (thread_.joinable()) thread_.join();
}

std::string Trainer::runDir() const {
  std::lock_guard lock(mutex_);
  return run_dir_;
}

void Trainer::setState(TrainerState state, const std::string& reason) {
  if (state_.exchange(state) != state || !reason.empty()) events_->pushState({state, reason});
}

void Trainer::runFolderReady(const std::string& path) {
  {
    std::lock_guard lock(mutex_);
    run_dir_ = path;
  }
  events_->announceRunFolder(path);
}

bool Trainer::commandWaiting() {
  std::lock_guard lock(mutex_);
  return paused_ || !commands_.empty();
}

bool Trainer::awaitNextBatch(LiveChanges& changes) {
  std::unique_lock lock(mutex_);
  for (;;) {
    while (!commands_.empty()) {
      const Command c = commands_.front();
      commands_.pop_front();
      switch (c.kind) {
        case CommandKind::kStop:
          return false;
        case CommandKind::kPause:
          paused_ = true;
          steps_granted_ = 0;  // a Step pressed while running must not run on after the pause
          break;
        case CommandKind::kResume:
          paused_ = false;
          steps_granted_ = 0;
          break;
        case CommandKind::kStep:
          ++steps_granted_;
          break;
        case CommandKind::kSetLearningRate:
          changes.learning_rate = c.learning_rate;
          break;
        case CommandKind::kSetProbeSample:
          changes.probe_sample = c.probe_sample;
          break;
      }
    }
    if (!paused_) {
      setState(TrainerState::kRunning);
      return true;
    }
    if (steps_granted_ > 0) {
      --steps_granted_;
      return true;  // one batch, then paused again
    }
    setState(TrainerState::kPaused);
    wake_.wait(lock, [this] { return !commands_.empty(); });
  }
}

void Trainer::run() {
  setState(TrainerState::kPreparing);
  TrainerState final_state = TrainerState::kFailed;
  const char* phase = "preparing the run (loading data, building the model)";
  try {
    TrainingSession session(static_cast<TrainingHost&>(*this), config_, job_);
    if (Status s = session.prepare(); !s.ok()) {
      events_->pushFailure({0, s.error()});
    } else {
      phase = "training";
      final_state = session.run();
    }
  } catch (const std::exception& e) {
    // Last line of defence: nothing escapes the thread. LibTorch appends a backtrace; keep line 1.
    const std::string what = e.what();
    const std::string first_line = what.substr(0, what.find('\n'));
    events_->pushFailure({0, isOutOfMemoryError(e)
                                 ? std::string("out of memory while ") + phase +
                                       " with batch_size " + std::to_string(config_.batch_size) +
                                       ": try a smaller batch_size or a smaller model (" +
                                       first_line + ")"
                                 : "training stopped by an internal error: " + first_line});
  }
  setState(final_state);
  finished_ = true;
}

}  // namespace ascope
