// `attentionscope-cli bench`: times training steps of a task and preset; one line of figures.
#include <cstdio>
#include <memory>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "app/cli/subcommands.h"
#include "app/cli/task_help.h"
#include "app/cli/training_options.h"
#include "app/cli/training_overrides.h"
#include "engine/tasks/task_registry.h"
#include "engine/train/step_benchmark.h"

namespace ascope::cli {
namespace {

constexpr int kWarmupSteps = 3;
constexpr int64_t kDefaultSteps = 10;

int bench(TrainingOptions o) {
  // --steps is the number of timed steps here, not the length of a run.
  const int64_t steps = o.steps.value_or(kDefaultSteps);
  o.steps.reset();
  Expected<TrainingConfig> config = trainingConfigFromOptions(o);
  if (!config.ok()) return usageError(config.error(), "bench");
  Expected<const TaskDescriptor*> task = findTask(config->task);
  if (!task.ok()) return usageError(task.error(), "bench");
  // Time the step a real run takes, augmentation included where the task's runs use it.
  config->augment = (*task)->default_augment;
  Expected<StepBenchmarkResult> result = benchmarkTrainingSteps(*config, steps, kWarmupSteps);
  if (!result.ok()) {
    std::fprintf(stderr, "attentionscope-cli: %s\n", result.error().c_str());
    return 1;
  }
  std::printf("ms_per_step=%.2f samples_per_s=%.1f\n", result->median_ms, result->samples_per_s);
  return 0;
}

}  // namespace

Subcommand addBenchCommand(CLI::App& app) {
  auto o = std::make_shared<TrainingOptions>();
  CLI::App* bench_command = app.add_subcommand("bench", "time training steps of a task and preset");
  bench_command->footer(
      "Times N training steps (forward, backward, optimizer) on built-in data after 3 warm-up\n"
      "steps and prints one line: ms_per_step=<median> samples_per_s=<...>\n\n" +
      taskListing());
  addTaskOption(*bench_command, *o)->required();
  addPresetOption(*bench_command, *o);
  addStepsOption(*bench_command, *o, "timed steps (default 10)");
  addDeviceOption(*bench_command, o->device, "cpu or cuda (default: cuda when present)");
  addBatchSizeOption(*bench_command, *o);
  addThreadsOption(*bench_command, *o);
  return {bench_command, [o] { return bench(*o); }};
}

}  // namespace ascope::cli
