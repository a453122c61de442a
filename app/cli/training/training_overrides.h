#pragma once
#include <string>

#include "app/cli/training/training_options.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/training_config.h"

namespace ascope::cli {

/// Preset of --task/--preset (or the config of --resume RUNDIR), then every override given on the
/// command line; validated. Errors name the option and value. Ranges and "not both" rules were
/// checked by the parser already.
Expected<TrainingConfig> trainingConfigFromOptions(const TrainingOptions& options);

/// "cuda" when LibTorch sees a GPU, else "cpu".
std::string defaultDevice();

}  // namespace ascope::cli
