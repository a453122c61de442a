#pragma once
#include "app/cli/cli_options.h"
#include "engine/train/training_config.h"

namespace ascope::cli {

/// Preset of --task/--preset (or the config of --resume RUNDIR), then every override given on the
/// command line; validated. Errors name the option and value.
Expected<TrainingConfig> trainingConfigFromOptions(const CliOptions& options);

/// "cuda" when LibTorch sees a GPU, else "cpu".
std::string defaultDevice();

}  // namespace ascope::cli
