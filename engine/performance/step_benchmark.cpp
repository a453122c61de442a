#include "engine/performance/step_benchmark.h"
#include "engine/tasks/registry/task_factory.h"
#include "engine/train/tensor_threads.h"

#include "engine/train/optim/optimizer_factory.h"

#include <torch/cuda.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <memory>
#include <vector>

#include "engine/datasets/epoch_batches.h"
#include "engine/tasks/task.h"

namespace ascope {
namespace {

Expected<StepBenchmarkResult> timeSteps(TrainingConfig config, int64_t steps, int warmup_steps,
                                        const BenchmarkShapes& shapes) {
  if (config.device == "cuda" && !torch::cuda::is_available()) {
    return Error{"device cuda requested but no CUDA GPU is available"};
  }
  // The timed steps read a few batches over and over: generating the full data set would only
  // make the benchmark slower to start.
  config.builtin.train_count = static_cast<int>(std::max<int64_t>(config.batch_size * 4, 64));
  config.builtin.test_count = 16;
  useTensorThreads(static_cast<int>(config.threads));
  torch::manual_seed(config.seed);
  const torch::Device device(config.device == "cuda" ? torch::kCUDA : torch::kCPU);
  Expected<std::unique_ptr<Task>> built = makeTrainingTask(config, device, nullptr, shapes);
  if (!built.ok()) return Error{built.error()};
  Task& task = **built;
  if (task.trainSize() <= 0) return Error{"the task has no training samples"};
  std::unique_ptr<torch::optim::Optimizer> optimizer =
      makeOptimizer(task.model(), config.optimization);
  task.model().train();

  // The batches of a run's first epoch that hold the samples of its first length pools, as many
  // pools as the timed steps need: bucketed or not, these are the same samples, so the two time
  // the same work, and a bucketed benchmark sees the lengths training sees.
  const std::vector<int64_t> pools =
      epochSamplePools(task.trainSize(), config.batch_size, config.seed, 1);
  const int64_t pools_timed = (steps + kBatchesPerLengthPool - 1) / kBatchesPerLengthPool;
  std::vector<std::vector<int64_t>> batches;
  for (std::vector<int64_t>& batch :
       epochBatches(task.trainSize(), config.batch_size, config.seed, 1,
                    config.bucket_by_length ? task.trainingLengths() : std::vector<int64_t>{})) {
    if (pools[static_cast<std::size_t>(batch.front())] < pools_timed) {
      batches.push_back(std::move(batch));
    }
  }
  std::vector<double> times_ms;
  int64_t samples = 0;
  double flops = 0;
  for (int64_t i = 0; i < warmup_steps + steps; ++i) {
    // The warm-up steps run on the first batches too: the timed ones start from the first again.
    const int64_t step = i < warmup_steps ? i : i - warmup_steps;
    const std::vector<int64_t>& indices = batches[static_cast<std::size_t>(step) % batches.size()];
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
      flops += task.trainingFlops(indices);
    }
  }
  double total_ms = 0;
  for (double ms : times_ms) total_ms += ms;
  std::sort(times_ms.begin(), times_ms.end());
  StepBenchmarkResult result;
  result.median_ms = times_ms[times_ms.size() / 2];
  result.samples_per_s = total_ms > 0 ? samples / (total_ms / 1000.0) : 0.0;
  result.gflop_per_step = flops / static_cast<double>(steps) / 1e9;
  result.gflop_per_s = total_ms > 0 ? flops / (total_ms / 1000.0) / 1e9 : 0.0;
  return result;
}

}  // namespace

Expected<StepBenchmarkResult> benchmarkTrainingSteps(const TrainingConfig& config, int64_t steps,
                                                     int warmup_steps,
                                                     const BenchmarkShapes& shapes) {
  if (steps < 1) return Error{"steps must be at least 1, got " + std::to_string(steps)};
  if (warmup_steps < 0) {
    return Error{"warm-up steps must not be negative, got " + std::to_string(warmup_steps)};
  }
  // LibTorch reports out-of-memory and device errors by throwing; the caller gets one line.
  try {
    return timeSteps(config, steps, warmup_steps, shapes);
  } catch (const std::exception& e) {
    const std::string what = e.what();
    return Error{"benchmark failed: " + what.substr(0, what.find('\n'))};
  }
}

}  // namespace ascope
