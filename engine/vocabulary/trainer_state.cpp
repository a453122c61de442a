#include "engine/vocabulary/trainer_state.h"

namespace ascope {

const char* trainerStateName(TrainerState state) {
  switch (state) {
    case TrainerState::kIdle:
      return "idle";
    case TrainerState::kPreparing:
      return "preparing";
    case TrainerState::kRunning:
      return "running";
    case TrainerState::kPaused:
      return "paused";
    case TrainerState::kStopped:
      return "stopped";
    case TrainerState::kFinished:
      return "finished";
    case TrainerState::kFailed:
      return "failed";
  }
  return "?";
}

}  // namespace ascope
