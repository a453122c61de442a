#include "app/cli/training/training_options.h"

#include <filesystem>
#include <limits>
#include <system_error>

#include "app/cli/cli_options.h"
#include "app/cli/task_help.h"
#include "engine/models/translator_config.h"
#include "engine/tasks/registry/task_registry.h"

namespace ascope::cli {

CLI::Option* addTaskOption(CLI::App& command, TrainingOptions& o) {
  const CLI::Validator registered(
      [](std::string& id) -> std::string {
        const Expected<const TaskDescriptor*> task = findTask(id);
        return task.ok() ? std::string() : task.error();
      },
      "");
  return command.add_option("--task", o.task, "the task: " + taskIds() + " (see tasks below)")
      ->type_name("TASK")
      ->check(registered);
}

CLI::Option* addPresetOption(CLI::App& command, TrainingOptions& o) {
  return command
      .add_option("--preset", o.preset,
                  "one of the task's presets (listed with the tasks below); default: seed with "
                  "--device cuda, else laptop (a task without them: its first preset)")
      ->type_name("P");
}

CLI::Option* addDataOption(CLI::App& command, TrainingOptions& o) {
  return command
      .add_option("--data", o.data,
                  "builtin (default), or a path in a format the task reads (see tasks below)")
      ->type_name("D")
      ->check(dataPath(/*builtin=*/true));
}

CLI::Option* addDeviceOption(CLI::App& command, std::optional<std::string>& device,
                             const std::string& help) {
  return command.add_option("--device", device, help)
      ->type_name("D")
      ->check(CLI::IsMember({"cpu", "cuda"}));
}

CLI::Option* addStepsOption(CLI::App& command, TrainingOptions& o, const std::string& help) {
  return command.add_option("--steps", o.steps, help)
      ->type_name("N")
      ->check(kWholeNumber)
      ->check(CLI::Range(int64_t{1}, int64_t{1'000'000'000'000}));
}

CLI::Option* addBatchSizeOption(CLI::App& command, TrainingOptions& o) {
  return command.add_option("--batch-size", o.batch_size, "samples per step")
      ->type_name("N")
      ->check(kWholeNumber)
      ->check(CLI::Range(int64_t{1}, int64_t{65536}));
}

CLI::Option* addThreadsOption(CLI::App& command, TrainingOptions& o) {
  return command.add_option("--threads", o.threads, "CPU threads for tensor operations")
      ->type_name("N")
      ->check(kWholeNumber)
      ->check(CLI::Range(int64_t{1}, int64_t{1024}));
}

CLI::Option* addSeedOption(CLI::App& command, TrainingOptions& o) {
  return command.add_option("--seed", o.seed, "random seed (same seed, same run)")
      ->type_name("N")
      ->check(kWholeNumber)
      ->check(CLI::Range(int64_t{0}, std::numeric_limits<int64_t>::max()));
}

std::vector<CLI::Option*> addHeldOutOptions(CLI::App& command, TrainingOptions& o) {
  // The three splits: validation carved from the training data, test the data set's own, a
  // named file, or carved once; never reused from validation.
  const CLI::Validator existing_path = dataPath(/*builtin=*/false);
  return {command
              .add_option("--test-data", o.test_data,
                          "the test split: a file or folder read like --data, never looked at "
                          "while training (default: the data set's own test split, else "
                          "--test-fraction of the data carved once)")
              ->type_name("PATH")
              ->check(existing_path),
          command
              .add_option("--validation-data", o.validation_data,
                          "the validation split (best weights, curves): a file or folder read "
                          "like --data (default: --validation-fraction of the data)")
              ->type_name("PATH")
              ->check(existing_path),
          command
              .add_option("--test-fraction", o.test_fraction,
                          "share of the data carved as the test split when it has none of its "
                          "own (default 0.1; 0: no test split, so no test figure)")
              ->type_name("F")
              ->check(realIn(0, 0.5)),
          command
              .add_option("--validation-fraction", o.validation_fraction,
                          "share of the data carved as the validation split (default 0.1)")
              ->type_name("F")
              ->check(realIn(0, 0.5, /*open=*/true))};
}

CLI::Option* addBeamOption(CLI::App& command, std::optional<int64_t>& beam) {
  return command
      .add_option("--beam", beam,
                  "translation: beam search with K hypotheses kept at each step, the best "
                  "finished one chosen by its length-normalised log-probability (1: greedy; "
                  "default: the run's setting, greedy)")
      ->type_name("K")
      ->check(kWholeNumber)
      ->check(CLI::Range(int64_t{1}, TranslatorConfig::kMaxBeamWidth));
}

void addProbeOptions(CLI::App& command, TrainingOptions& o) {
  command
      .add_option("--probe", o.probe,
                  "validation samples whose attention is probed (the probe set), e.g. 0,5,9; "
                  "every view can switch between them and head statistics average over them "
                  "(default 0,1,2,3)")
      ->type_name("I,J,…")
      ->delimiter(',')
      ->expected(1, 16)
      ->check(CLI::Range(0, 100'000'000));
  command
      .add_option("--probe-every-steps", o.probe_every_steps,
                  "probe attention every N steps … (default 50)")
      ->type_name("N")
      ->check(CLI::Range(int64_t{1}, int64_t{1'000'000'000'000}));
  command
      .add_option("--probe-every-seconds", o.probe_every_seconds,
                  "… or every S seconds, whichever comes first (default 5)")
      ->type_name("S")
      ->check(CLI::Range(1e-3, 1e9));
  command.add_flag("--no-head-stats", o.no_head_statistics,
                   "do not compute per-head statistics at each probe (head_stats.csv)");
  command
      .add_option("--snapshot-every-steps", o.snapshot_every_steps,
                  "store the probe set on every multiple of N steps: the run's timeline (default "
                  "0: a round number giving 100 or more snapshots)")
      ->type_name("N")
      ->check(CLI::Range(int64_t{0}, int64_t{1'000'000'000'000}));
  command
      .add_option("--snapshot-budget", o.snapshot_budget_mb,
                  "most MiB the run's attention/ folder may hold; older snapshots are thinned "
                  "out to stay under it (default 256)")
      ->type_name("MB")
      ->check(CLI::Range(int64_t{1}, int64_t{1'000'000}));
}

}  // namespace ascope::cli
