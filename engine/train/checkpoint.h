#pragma once
// One file per checkpoint holding the model, the optimizer state and the trainer's progress, so a
// single atomic rename makes the whole checkpoint appear at once.
#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>

#include <string>

#include "engine/vocabulary/expected.h"

namespace ascope {

struct TrainingProgress {
  int64_t step = 0;  ///< optimizer steps done
  double best_val_accuracy = -1;
};

/// Written to `path` via temp file + rename; a crash or a full disk leaves the previous checkpoint
/// intact (the error then reads "disk full while writing PATH").
Status saveCheckpoint(const std::string& path, torch::nn::Module& model,
                      torch::optim::Optimizer* optimizer, const TrainingProgress& progress);

/// Loads into `model` (and `optimizer` when given) on the device `model` is on, whatever device
/// the checkpoint was written from. Errors name the file.
Expected<TrainingProgress> loadCheckpoint(const std::string& path, torch::nn::Module& model,
                                          torch::optim::Optimizer* optimizer);

/// The same archive in memory (a data-parallel job's rank 0 sends its state to the others).
std::string checkpointBytes(torch::nn::Module& model, torch::optim::Optimizer* optimizer,
                            const TrainingProgress& progress);

/// Loads checkpointBytes' archive as loadCheckpoint loads a file; errors begin with `name`.
Expected<TrainingProgress> loadCheckpointBytes(const std::string& bytes, const std::string& name,
                                               torch::nn::Module& model,
                                               torch::optim::Optimizer* optimizer);

}  // namespace ascope
