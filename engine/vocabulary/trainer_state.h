#pragma once
// Where a run is (idle, preparing, running, paused, stopped, finished, failed), and the events
// that say it changed.
#include <cstdint>
#include <string>

namespace ascope {

enum class TrainerState { kIdle, kPreparing, kRunning, kPaused, kStopped, kFinished, kFailed };
const char* trainerStateName(TrainerState state);
/// True for the states after which the trainer thread has ended or is about to.
inline bool isFinalState(TrainerState state) {
  return state == TrainerState::kStopped || state == TrainerState::kFinished ||
         state == TrainerState::kFailed;
}

struct StateChange {
  TrainerState state = TrainerState::kIdle;
  std::string reason;
};

struct Failure {
  int64_t step = 0;
  std::string message;  ///< meant for a person
};

}  // namespace ascope
