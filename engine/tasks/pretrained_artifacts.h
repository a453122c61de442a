#pragma once
// The files of a Hugging Face model folder that a fine-tuning run keeps, so that its inference
// needs only the run folder: copied into the run's pretrained/ subfolder. Plain C++.
#include <string>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// The run folder's subfolder with the pretrained model's config.json and its input files.
inline constexpr char kPretrainedArtifactsFolder[] = "pretrained";

/// Copies those of `names` that exist in `model_folder` to run_dir/pretrained/, replacing older
/// copies; the subfolder is created either way. Nothing is copied when `model_folder` is empty
/// (a task built for inference).
Status copyPretrainedArtifacts(const std::string& model_folder, const std::string& run_dir,
                               const std::vector<std::string>& names);

}  // namespace ascope
