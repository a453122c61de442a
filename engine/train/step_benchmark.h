#pragma once
// Times training steps (forward, backward, optimizer) of a configuration on its device: the figures
// `attentionscope-cli bench` prints. Plain C++ (the .cpp uses LibTorch), so callers need no torch
// header.
#include <cstdint>

#include "engine/core/expected.h"
#include "engine/train/training_config.h"

namespace ascope {

struct StepBenchmarkResult {
  double median_ms = 0;      ///< median wall time of one timed step
  double samples_per_s = 0;  ///< samples of all timed steps over their total time
};

/// Builds the task of `config` (with only as much generated data as the steps need), runs
/// `warmup_steps` untimed steps, then times `steps` steps. Errors: a task that does not build, a
/// device that is not there, a step that throws (out of memory).
Expected<StepBenchmarkResult> benchmarkTrainingSteps(const TrainingConfig& config, int64_t steps,
                                                     int warmup_steps);

}  // namespace ascope
