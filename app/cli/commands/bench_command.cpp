// `attentionscope-cli bench`: times training steps of a task and preset; one line of figures.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "app/cli/cli_options.h"
#include "app/cli/commands.h"
#include "app/cli/subcommands.h"
#include "app/cli/task_help.h"
#include "app/cli/training/training_options.h"
#include "app/cli/training/training_overrides.h"
#include "engine/performance/step_benchmark.h"
#include "engine/tasks/registry/task_registry.h"

namespace ascope::cli {
namespace {

constexpr int64_t kDefaultWarmupSteps = 3;
constexpr int64_t kDefaultSteps = 10;

/// The training options, and those that only make sense for timing: the shapes another
/// implementation is timed on, so that both do the same work.
struct BenchOptions {
  TrainingOptions training;
  std::optional<int64_t> vocab, pad_to;
  int64_t warmup = kDefaultWarmupSteps;
  bool no_bucketing = false;
};

int bench(BenchOptions o) {
  // --steps is the number of timed steps here, not the length of a run.
  const int64_t steps = o.training.steps.value_or(kDefaultSteps);
  o.training.steps.reset();
  Expected<TrainingConfig> config = trainingConfigFromOptions(o.training);
  if (!config.ok()) return usageError(config.error(), "bench");
  Expected<const TaskDescriptor*> task = findTask(config->task);
  if (!task.ok()) return usageError(task.error(), "bench");
  if (o.no_bucketing) config->bucket_by_length = false;
  BenchmarkShapes shapes;
  shapes.vocab = o.vocab.value_or(0);
  shapes.pad_to = o.pad_to.value_or(0);
  Expected<StepBenchmarkResult> result =
      benchmarkTrainingSteps(*config, steps, static_cast<int>(o.warmup), shapes);
  if (!result.ok()) {
    // The shapes' own refusals ("vocab and pad_to are for text tasks…", "pad_to 30 is longer than
    // the model's seq_len 24") are bad values of --vocab or --pad-to: named by their option.
    const std::string& e = result.error();
    const bool names_vocab = e.rfind("vocab", 0) == 0, names_pad = e.rfind("pad_to", 0) == 0;
    if ((o.vocab && names_vocab) || (o.pad_to && (names_pad || names_vocab))) {
      return usageError(
          std::string(o.vocab && names_vocab ? "--vocab " + std::to_string(*o.vocab)
                                             : "--pad-to " + std::to_string(*o.pad_to)) +
              ": " + e,
          "bench");
    }
    std::fprintf(stderr, "attentionscope-cli: %s\n", e.c_str());
    return 1;
  }
  std::printf("ms_per_step=%.2f samples_per_s=%.4g", result->median_ms, result->samples_per_s);
  if (result->gflop_per_step > 0) {
    std::printf(" gflop_per_step=%.4g gflop_per_s=%.1f", result->gflop_per_step,
                result->gflop_per_s);
  }
  std::printf("\n");
  return 0;
}

}  // namespace

Subcommand addBenchCommand(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* bench_command = app.add_subcommand("bench", "time training steps of a task and preset");
  bench_command->footer(
      "Times N training steps (forward, backward, optimizer) on the batches of a run's first "
      "epoch\n"
      "after --warmup untimed ones and prints one line:\n"
      "  ms_per_step=<median> samples_per_s=<...> [gflop_per_step=<...> gflop_per_s=<...>]\n"
      "GFLOP count every matrix product, forward and backward, where the task can tell them.\n"
      "--vocab and --pad-to fix the shapes another implementation is timed on, e.g. the seed's\n"
      "translation step: --task translate --preset seed --batch-size 8 --vocab 22000 --pad-to "
      "350\n\n" +
      taskListing());
  addTaskOption(*bench_command, o->training)->required();
  addPresetOption(*bench_command, o->training);
  CLI::Option* data = addDataOption(*bench_command, o->training);
  addStepsOption(*bench_command, o->training, "timed steps (default 10)");
  bench_command->add_option("--warmup", o->warmup, "untimed steps before them (default 3)")
      ->type_name("N")
      ->check(kWholeNumber)
      ->check(CLI::Range(int64_t{0}, int64_t{1'000'000}));
  addDeviceOption(*bench_command, o->training.device, "cpu or cuda (default: cuda when present)");
  addBatchSizeOption(*bench_command, o->training);
  addThreadsOption(*bench_command, o->training);
  bench_command
      ->add_option("--vocab", o->vocab,
                   "text tasks: random words over exactly N token ids (special ones included) "
                   "instead of the data, every sample as long as the model takes (imdb: max_len; "
                   "translate: --pad-to, else seq_len)")
      ->type_name("N")
      ->check(kWholeNumber)
      ->check(CLI::Range(int64_t{2}, int64_t{1'000'000}))
      ->excludes(data);
  bench_command
      ->add_option("--pad-to", o->pad_to,
                   "translate: pad every batch to N source and N decoder tokens (at most the "
                   "model's seq_len; a longer pair is an error)")
      ->type_name("N")
      ->check(kWholeNumber)
      ->check(CLI::Range(int64_t{1}, int64_t{100'000}));
  bench_command->add_flag(
      "--no-bucketing", o->no_bucketing,
      "random batches padded to their longest sample, not length-bucketed ones (translate)");
  return {bench_command, [o] { return bench(*o); }};
}

}  // namespace ascope::cli
