#include "engine/performance/run_time_estimate.h"

#include <cmath>
#include <cstdio>

#include "engine/device/device_query.h"
#include "engine/tasks/registry/task_registry.h"

namespace ascope {
RunTimeEstimate estimateRunTime(double flops_per_step, int64_t steps, double device_gflops) {
  RunTimeEstimate e;
  e.flops_per_step = flops_per_step;
  e.steps = steps;
  e.device_gflops = device_gflops;
  const bool known = std::isfinite(flops_per_step) && flops_per_step > 0 && steps > 0 &&
                     std::isfinite(device_gflops) && device_gflops > 0;
  e.seconds = known ? flops_per_step * static_cast<double>(steps) / (device_gflops * 1e9) : 0;
  return e;
}

double assumedTrainingGflops(const std::string& device, int cpus) {
  if (device == "cuda") return kCudaTrainingGflops;
  return kCpuCoreTrainingGflops * std::max(1, cpus);
}

int64_t plannedSteps(const TrainingConfig& config, int64_t train_samples) {
  if (config.max_steps > 0) return config.max_steps;
  if (train_samples <= 0 || config.batch_size <= 0 || config.epochs <= 0) return 0;
  const int64_t per_epoch =
      train_samples / config.batch_size + (train_samples % config.batch_size != 0);
  int64_t steps = 0;
  if (__builtin_mul_overflow(per_epoch, int64_t{config.epochs}, &steps)) return INT64_MAX;
  return steps;
}

std::optional<int64_t> knownTrainSamples(const TrainingConfig& config) {
  if (config.data.empty() || config.data == "builtin") return config.builtin.train_count;
  return std::nullopt;
}

Expected<std::optional<RunTimeEstimate>> estimateRunTime(const TrainingConfig& config, int cpus) {
  Expected<const TaskDescriptor*> task = findTask(config.task);
  if (!task.ok()) return Error{task.error()};
  int64_t steps = config.max_steps;
  if (steps <= 0) {
    const std::optional<int64_t> samples = knownTrainSamples(config);
    if (!samples) return std::optional<RunTimeEstimate>();
    steps = plannedSteps(config, *samples);
  }
  if (!(*task)->step_flops) {
    return Error{"task " + config.task + " does not say what a training step of its model costs"};
  }
  Expected<double> flops = (*task)->step_flops(config);
  if (!flops.ok()) return Error{flops.error()};
  RunTimeEstimate estimate =
      estimateRunTime(*flops, steps, assumedTrainingGflops(config.device, cpus));
  for (const TrainingDevice& d : trainingDevices()) {
    if (d.id == config.device) estimate.device = d.text;
  }
  return std::optional<RunTimeEstimate>(estimate);
}

std::string durationText(double seconds) {
  char text[48];
  if (seconds < 60) return "under a minute";
  if (seconds < 3600) {
    std::snprintf(text, sizeof text, "about %.0f min", std::round(seconds / 60));
  } else if (seconds < 48 * 3600) {
    std::snprintf(text, sizeof text, "about %.0f h", std::round(seconds / 3600));
  } else {
    std::snprintf(text, sizeof text, "about %.0f days", std::round(seconds / 86400));
  }
  return text;
}

}  // namespace ascope
