#pragma once
#include "engine/train/training_config.h"

namespace ascope::cli {

/// Trains `config` on the trainer's thread while printing its progress (rewritten in place on a
/// terminal, a line every 10 s otherwise), its log and a summary. Returns the exit code: 2 when
/// the run could not start, 1 when it failed, else 0.
int trainAndReport(const TrainingConfig& config);

}  // namespace ascope::cli
