#pragma once
// One file per checkpoint holding the model, the optimizer state and the trainer's progress, so a
// single atomic rename makes the whole checkpoint appear at once.
#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>

#include <string>
#include <vector>

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
/// the checkpoint was written from. Nothing changes unless the whole file is sound: a complete
/// archive whose records match their CRC-32 (engine/core/zip_checksums.h), every tensor of the
/// model present with the model's shape (a checkpoint of another preset is refused by name, not
/// loaded to fail later as a LibTorch shape error), no tensor the model lacks, finite weights.
/// Errors name the file and the tensor.
Expected<TrainingProgress> loadCheckpoint(const std::string& path, torch::nn::Module& model,
                                          torch::optim::Optimizer* optimizer);

/// The same archive in memory (a data-parallel job's rank 0 sends its state to the others).
std::string checkpointBytes(torch::nn::Module& model, torch::optim::Optimizer* optimizer,
                            const TrainingProgress& progress);

/// Loads checkpointBytes' archive as loadCheckpoint loads a file; errors begin with `name`.
Expected<TrainingProgress> loadCheckpointBytes(const std::string& bytes, const std::string& name,
                                               torch::nn::Module& model,
                                               torch::optim::Optimizer* optimizer);

/// RUN_DIR/checkpoints/<first>.pt, then the run's other one (last, best), where something of that
/// name exists: a FIFO or folder in a checkpoint's place is listed too, so that loadCheckpoint
/// refuses it by name instead of the run seeming to have no checkpoint.
std::vector<std::string> existingCheckpoints(const std::string& run_dir, const std::string& first);

struct LoadedCheckpoint {
  std::string path;
  TrainingProgress progress;
  /// Why the checkpoints before `path` were not used, "; "-joined; empty when the first loaded.
  std::string passed_over;
};

/// The first of `paths` that loads (loadCheckpoint): a damaged last.pt must not hide best.pt, the
/// same model, older. The error joins every file's.
Expected<LoadedCheckpoint> loadFirstCheckpoint(const std::vector<std::string>& paths,
                                               torch::nn::Module& model,
                                               torch::optim::Optimizer* optimizer);

}  // namespace ascope
