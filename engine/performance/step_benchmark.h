#pragma once
// Times training steps (forward, backward, optimizer) of a configuration on its device: the figures
// `attentionscope-cli bench` prints. Plain C++ (the .cpp uses LibTorch), so callers need no torch
// header.
#include <cstdint>

#include "engine/tasks/benchmark_shapes.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {

struct StepBenchmarkResult {
  double median_ms = 0;      ///< median wall time of one timed step
  double samples_per_s = 0;  ///< samples of all timed steps over their total time
  /// Mean analytic FLOP of a timed step (engine/models/model_flops.h), in 10^9; 0 when the task
  /// cannot tell.
  double gflop_per_step = 0;
  double gflop_per_s = 0;  ///< the timed steps' FLOP over their total time; 0 when unknown
};

/// Builds the task of `config` (with only as much generated data as the steps need, or the
/// benchmark data of `shapes`), runs `warmup_steps` untimed steps, then times `steps` steps on
/// batches of epoch 1 as training cuts them (epoch_batches.h, length-bucketed when
/// config.bucket_by_length): those holding the samples of its first ceil(steps / 50) length pools,
/// in training order, again from the first when there are fewer. With `steps` a multiple of 50,
/// bucketed and unbucketed runs time exactly the same samples. Errors: a task that does not build
/// or refuses `shapes`, a device that is not there, a step that throws (out of memory).
Expected<StepBenchmarkResult> benchmarkTrainingSteps(const TrainingConfig& config, int64_t steps,
                                                     int warmup_steps,
                                                     const BenchmarkShapes& shapes = {});

}  // namespace ascope
