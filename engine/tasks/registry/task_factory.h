#pragma once
// The task of a config, built through the registry (LibTorch side: the tasks take a device and
// return models). Defined with the registry in task_registry.cpp.
#include <memory>
#include <string>
#include <vector>

#include "engine/tasks/task.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {

/// Builds the task of `config.task` (looked up in the registry) on `device`: loads (or generates)
/// its data, fits tokenizers, builds the model; with `shapes`, the benchmark's data and padding.
Expected<std::unique_ptr<Task>> makeTrainingTask(const TrainingConfig& config,
                                                 const torch::Device& device,
                                                 std::vector<std::string>* warnings,
                                                 const BenchmarkShapes& shapes = {});

/// Rebuilds the task of a finished run for inference: reads tokenizers and class names from
/// `run_dir`. With `with_data`, the task also reads config.data, split as training would split it
/// (TaskBuild::with_data); `warnings` hears what loading it skipped.
Expected<std::unique_ptr<Task>> makeInferenceTask(const TrainingConfig& config,
                                                  const std::string& run_dir,
                                                  const torch::Device& device,
                                                  bool with_data = false,
                                                  std::vector<std::string>* warnings = nullptr);

}  // namespace ascope
