#include "engine/train/step_benchmark.h"

#include "engine/train/optimizer_factory.h"

#include <torch/cuda.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <memory>
#include <vector>

#include "engine/data/seeded_split.h"
#include "engine/tasks/task.h"

namespace ascope {
namespace {

Expected<StepBenchmarkResult> timeSteps(TrainingConfig config, int64_t steps, int warmup_steps) {
  if (config.device == "cuda" && !torch::cuda::is_available()) {
    return Error{"device cuda requested but no CUDA GPU is available"};
  }
  // The timed steps read a few batches over and over: generating the full data set would only
  // make the benchmark slower to start.
  config.builtin.train_count = static_cast<int>(std::max<int64_t>(config.batch_size * 4, 64));
  config.builtin.test_count = 16;
  if (config.threads > 0) at::set_num_threads(config.threads);
  torch::manual_seed(config.seed);
  const torch::Device device(config.device == "cuda" ? torch::kCUDA : torch::kCPU);
  Expected<std::unique_ptr<Task>> built = makeTrainingTask(config, device, nullptr);
  if (!built.ok()) return Error{built.error()};
  Task& task = **built;
  if (task.trainSize() <= 0) return Error{"the task has no training samples"};
  std::unique_ptr<torch::optim::Optimizer> optimizer =
      makeOptimizer(task.model(), config.optimization);
  task.model().train();

  const std::vector<std::size_t> order =
      seededPermutation(static_cast<std::size_t>(task.trainSize()), config.seed);
  const int64_t batch = std::min<int64_t>(config.batch_size, task.trainSize());
  const int64_t batch_starts = task.trainSize() - batch + 1;
  std::vector<double> times_ms;
  int64_t samples = 0;
  for (int64_t i = 0; i < warmup_steps + steps; ++i) {
    const int64_t start = (i * batch) % batch_starts;
    const std::vector<int64_t> indices(order.begin() + start, order.begin() + start + batch);
    const auto t0 = std::chrono::steady_clock::now();
    optimizer->zero_grad();
    BatchOutcome out = task.trainBatch(indices);
    out.loss.backward();
    optimizer->step();
    out.loss.item<double>();  // sync point: the step is done on any device
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (i >= warmup_steps) {
      times_ms.push_back(ms);
      samples += out.samples;
    }
  }
  double total_ms = 0;
  for (double ms : times_ms) total_ms += ms;
  std::sort(times_ms.begin(), times_ms.end());
  return StepBenchmarkResult{times_ms[times_ms.size() / 2],
                             total_ms > 0 ? samples / (total_ms / 1000.0) : 0.0};
}

}  // namespace

Expected<StepBenchmarkResult> benchmarkTrainingSteps(const TrainingConfig& config, int64_t steps,
                                                     int warmup_steps) {
  if (steps < 1) return Error{"steps must be at least 1, got " + std::to_string(steps)};
  if (warmup_steps < 0) {
    return Error{"warm-up steps must not be negative, got " + std::to_string(warmup_steps)};
  }
  // LibTorch reports out-of-memory and device errors by throwing; the caller gets one line.
  try {
    return timeSteps(config, steps, warmup_steps);
  } catch (const std::exception& e) {
    const std::string what = e.what();
    return Error{"benchmark failed: " + what.substr(0, what.find('\n'))};
  }
}

}  // namespace ascope
