#pragma once
// The one list of tasks. The built-in ones (image classification, sentiment, translation) are
// registered when the registry is first used; more can be added at start-up (tests add a fake one)
// before any run starts. Lookups return stable pointers: a descriptor lives as long as the program.
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/task_descriptor.h"

namespace ascope {

class TaskRegistry {
 public:
  /// The program's registry, with the built-in tasks in it.
  static TaskRegistry& instance();

  /// Adds a task; an error when its id is empty or taken, or a factory is missing.
  Status add(TaskDescriptor descriptor);

  /// The task `id`, or null.
  const TaskDescriptor* find(std::string_view id) const;
  /// The task `id`, or an error listing the known ids: unknown task "x" (expected vit, …).
  Expected<const TaskDescriptor*> lookup(std::string_view id) const;
  /// Every task in registration order (built-in ones first).
  std::vector<const TaskDescriptor*> all() const;
  /// "a, b or c"
  std::string idList() const;

 private:
  TaskRegistry() = default;

  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<const TaskDescriptor>> tasks_;  // guarded by mutex_
};

/// Shorthand for TaskRegistry::instance().lookup(id).
Expected<const TaskDescriptor*> findTask(std::string_view id);

/// The figures task `id` declares (TaskDescriptor::metrics); none for a task this build does not
/// know (its figures are then shown under their keys).
std::vector<MetricInfo> declaredMetrics(std::string_view id);

/// The configuration of `preset` for `task`, or an error naming the unknown value.
Expected<TrainingConfig> makePreset(const std::string& task, const std::string& preset);

/// Every check of a config: its task exists, the common settings (TrainingConfig::validateCommon),
/// a pretrained model folder only for a task that fine-tunes one, then the task's own checks.
Status validateConfig(const TrainingConfig& config);

}  // namespace ascope
