#pragma once
// Which checkpoint a resumed run continues from, loaded: checkpoints/last.pt, else best.pt (a
// first last.pt that a full disk refused, a last.pt removed or damaged), else none yet.
#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>

#include <string>
#include <vector>

#include "engine/runfolder/run_folder.h"
#include "engine/train/checkpoint.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

struct ResumePoint {
  TrainingProgress progress;          ///< step 0 when the run has no checkpoint yet
  std::vector<std::string> warnings;  ///< for the run's log: what was passed over, and why
};

/// Loads the newest sound checkpoint of `folder` into `model` and `optimizer`. A run without any
/// starts again from step 0 (a warning says so); an error when every checkpoint there is fails to
/// load, naming each file and why (nothing has changed then: the caller touches no file).
Expected<ResumePoint> loadResumeCheckpoint(const RunFolder& folder, torch::nn::Module& model,
                                           torch::optim::Optimizer* optimizer);

}  // namespace ascope
