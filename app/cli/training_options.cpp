#include "app/cli/training_options.h"

#include "app/cli/cli_options.h"
#include "app/cli/task_help.h"
#include "engine/tasks/task_registry.h"

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

}  // namespace ascope::cli
