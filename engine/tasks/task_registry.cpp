#include "engine/tasks/task_registry.h"

#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/task.h"
#include "engine/tasks/translation/translation_descriptor.h"

namespace ascope {

std::vector<PresetInfo> laptopTinySeedPresets() {
  return {{"laptop", "minutes on a CPU"},
          {"tiny", "seconds, a quick look"},
          {"seed", "reference model (GPU)"}};
}

bool TaskDescriptor::hasPreset(const std::string& name) const {
  for (const PresetInfo& p : presets) {
    if (p.name == name) return true;
  }
  return false;
}

std::string TaskDescriptor::defaultPreset(bool gpu) const {
  // Without a GPU the reference configurations take hours; laptop is the sensible default there.
  const char* preferred = gpu ? "seed" : "laptop";
  if (hasPreset(preferred)) return preferred;
  return presets.empty() ? std::string() : presets.front().name;
}

namespace {

std::string joinAsList(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " or " : ", ";
    out += items[i];
  }
  return out;
}

}  // namespace

std::string TaskDescriptor::presetList() const {
  std::vector<std::string> names;
  for (const PresetInfo& p : presets) names.push_back(p.name);
  return joinAsList(names);
}

TaskRegistry& TaskRegistry::instance() {
  // Built on first use, so registration order never depends on static initialisation order.
  static TaskRegistry* registry = [] {
    auto* r = new TaskRegistry;
    for (TaskDescriptor d : {imageClassificationTaskDescriptor(), sentimentTaskDescriptor(),
                             translationTaskDescriptor()}) {
      r->add(std::move(d));
    }
    return r;
  }();
  return *registry;
}

Status TaskRegistry::add(TaskDescriptor d) {
  if (d.id.empty()) return Error{"a task needs an id"};
  if (d.presets.empty() || !d.make_preset || !d.validate || !d.model_shape || !d.set_model_shape ||
      !d.image_side || !d.attention_axes || !d.make_training_task || !d.make_inference_task) {
    return Error{"task \"" + d.id + "\" lacks a preset or a factory"};
  }
  std::lock_guard lock(mutex_);
  for (const auto& t : tasks_) {
    if (t->id == d.id) return Error{"task \"" + d.id + "\" is registered already"};
  }
  tasks_.push_back(std::make_unique<const TaskDescriptor>(std::move(d)));
  return {};
}

const TaskDescriptor* TaskRegistry::find(std::string_view id) const {
  std::lock_guard lock(mutex_);
  for (const auto& t : tasks_) {
    if (t->id == id) return t.get();
  }
  return nullptr;
}

Expected<const TaskDescriptor*> TaskRegistry::lookup(std::string_view id) const {
  if (const TaskDescriptor* d = find(id)) return d;
  return Error{"unknown task \"" + std::string(id) + "\" (expected " + idList() + ")"};
}

std::vector<const TaskDescriptor*> TaskRegistry::all() const {
  std::lock_guard lock(mutex_);
  std::vector<const TaskDescriptor*> out;
  for (const auto& t : tasks_) out.push_back(t.get());
  return out;
}

std::string TaskRegistry::idList() const {
  std::vector<std::string> ids;
  for (const TaskDescriptor* d : all()) ids.push_back(d->id);
  return joinAsList(ids);
}

Expected<const TaskDescriptor*> findTask(std::string_view id) {
  return TaskRegistry::instance().lookup(id);
}

Expected<std::unique_ptr<Task>> makeTrainingTask(const TrainingConfig& config,
                                                 const torch::Device& device,
                                                 std::vector<std::string>* warnings,
                                                 const BenchmarkShapes& shapes) {
  Expected<const TaskDescriptor*> task = findTask(config.task);
  if (!task.ok()) return Error{task.error()};
  return (*task)->make_training_task(TaskBuild{config, device, {}, warnings, shapes});
}

Expected<std::unique_ptr<Task>> makeInferenceTask(const TrainingConfig& config,
                                                  const std::string& run_dir,
                                                  const torch::Device& device) {
  Expected<const TaskDescriptor*> task = findTask(config.task);
  if (!task.ok()) return Error{task.error()};
  return (*task)->make_inference_task(TaskBuild{config, device, run_dir, nullptr, {}});
}

}  // namespace ascope
