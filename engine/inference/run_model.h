#pragma once
// A trained run's model rebuilt from its folder: the task of its config.json on a device, with the
// weights of one of its checkpoints. What `infer`, "Try it" and `evaluate` ask. LibTorch side:
// included by engine .cpp files only.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/inference/checkpoint_inference.h"
#include "engine/tasks/task.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {

struct RunModel {
  TrainingConfig config;
  std::unique_ptr<Task> task;  ///< in eval mode
  std::string checkpoint;      ///< the file the weights came from
  std::int64_t step = 0;
  /// One line for a person when the preferred checkpoint did not load and the other did.
  std::string note;
};

/// The run in `run_dir` on `device` ("cpu" or "cuda") with the checkpoint `choice` prefers (the
/// other when that one does not load). With `data_config`, the task is built from that config
/// (the run's, with another data set) and reads its data (TaskBuild::with_data); `warnings` hears
/// what loading it skipped. `beam_width` > 0: a translation run decodes with a beam that wide
/// (1 greedy) instead of as its settings say; for another task it is an error.
Expected<RunModel> loadRunModel(const std::string& run_dir, CheckpointChoice choice,
                                const std::string& device,
                                const std::optional<TrainingConfig>& data_config = std::nullopt,
                                std::vector<std::string>* warnings = nullptr, int beam_width = 0);

/// `file` decoded at the input size of the run's model; an error for a run that reads text.
Expected<ImageBuffer> decodeImageForRun(const std::string& file, const TrainingConfig& config);

}  // namespace ascope
