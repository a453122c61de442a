#include <torch/optim/adam.h>
#include <torch/optim/adamw.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "app/cli/training_overrides.h"
#include "engine/tasks/attention_capture.h"
#include "engine/tasks/task.h"

namespace ascope::cli {
namespace {

constexpr const char* kBenchHelp =
    "usage: attentionscope-cli bench --task T --preset P --steps N [--device D] [--batch-size N]\n"
    "\n"
    "Times N training steps (forward, backward, optimizer) on built-in data after 3 warm-up\n"
    "steps and prints one line: ms_per_step=<median> samples_per_s=<...>\n";

constexpr int kWarmupSteps = 3;

}  // namespace

int runBench(const std::vector<std::string>& args) {
  Expected<CliOptions> parsed = CliOptions::parse(
      args, {"--task", "--preset", "--steps", "--device", "--batch-size", "--threads"}, {"--help"});
  if (!parsed.ok()) return usageError(parsed.error(), "bench");
  if (parsed->has("--help")) {
    std::fputs(kBenchHelp, stdout);
    return 0;
  }
  Expected<TrainingConfig> config = trainingConfigFromOptions(*parsed);
  if (!config.ok()) return usageError(config.error(), "bench");
  const Expected<std::optional<int64_t>> steps_option = parsed->integer("--steps", 1);
  const int64_t steps = steps_option.ok() && *steps_option ? **steps_option : 10;
  // Only as much generated data as the timed steps need.
  config->builtin.train_count = static_cast<int>(std::max<int64_t>(config->batch_size * 4, 64));
  config->builtin.test_count = 16;
  config->augment = config->task == "vit";

  torch::manual_seed(config->seed);
  const torch::Device device(config->device == "cuda" ? torch::kCUDA : torch::kCPU);
  Expected<std::unique_ptr<Task>> task = makeTrainingTask(*config, device, nullptr);
  if (!task.ok()) return usageError(task.error(), "bench");
  Task& t = **task;
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  if (config->optimization.optimizer == "adamw") {
    optimizer = std::make_unique<torch::optim::AdamW>(t.model().parameters(),
                                                      torch::optim::AdamWOptions(config->optimization.lr));
  } else {
    optimizer = std::make_unique<torch::optim::Adam>(t.model().parameters(),
                                                     torch::optim::AdamOptions(config->optimization.lr));
  }
  t.model().train();
  const std::vector<int64_t> order = seededPermutation(t.trainSize(), config->seed);
  std::vector<double> times_ms;
  int64_t samples = 0;
  for (int64_t i = 0; i < kWarmupSteps + steps; ++i) {
    const int64_t start = (i * config->batch_size) % std::max<int64_t>(1, t.trainSize() - config->batch_size + 1);
    const std::vector<int64_t> indices(order.begin() + start,
                                       order.begin() + std::min<int64_t>(start + config->batch_size, t.trainSize()));
    const auto t0 = std::chrono::steady_clock::now();
    optimizer->zero_grad();
    BatchOutcome out = t.trainBatch(indices);
    out.loss.backward();
    optimizer->step();
    out.loss.item<double>();  // sync point: the step is done on any device
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (i >= kWarmupSteps) {
      times_ms.push_back(ms);
      samples += out.samples;
    }
  }
  std::vector<double> sorted = times_ms;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[sorted.size() / 2];
  double total_ms = 0;
  for (double ms : times_ms) total_ms += ms;
  std::printf("ms_per_step=%.2f samples_per_s=%.1f\n", median, samples / (total_ms / 1000.0));
  return 0;
}

}  // namespace ascope::cli
