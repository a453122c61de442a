#include "engine/train/resume_checkpoint.h"

namespace ascope {

Expected<ResumePoint> loadResumeCheckpoint(const RunFolder& folder, torch::nn::Module& model,
                                           torch::optim::Optimizer* optimizer) {
  ResumePoint point;
  const std::vector<std::string> checkpoints = existingCheckpoints(folder.path(), "last");
  if (checkpoints.empty()) {
    // Ended (killed, failed) before its first checkpoint: nothing to continue, but the folder
    // and its config.json must stay usable, so the run starts again from its first step.
    point.warnings.push_back("no checkpoint in " + folder.path() +
                             " yet: the run starts again from step 0 with its config.json");
    return point;
  }
  Expected<LoadedCheckpoint> loaded = loadFirstCheckpoint(checkpoints, model, optimizer);
  if (!loaded.ok()) return Error{"cannot resume " + folder.path() + ": " + loaded.error()};
  point.progress = loaded->progress;
  if (loaded->path != folder.checkpointPath("last")) {
    // A run whose last.pt a full disk refused could never be resumed, although the
    // message itself said "free some space, then resume".
    const std::string why = loaded->passed_over.empty()
                                ? folder.checkpointPath("last") + " is missing"
                                : loaded->passed_over;
    point.warnings.push_back(why + "; resuming from " + loaded->path + " (step " +
                             std::to_string(loaded->progress.step) +
                             ") instead: the steps after it are trained again");
  }
  return point;
}

}  // namespace ascope
