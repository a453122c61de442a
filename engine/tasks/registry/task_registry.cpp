#include "engine/tasks/registry/task_registry.h"

#include "engine/tasks/digit_order/digit_order_descriptor.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/letter_reversal/letter_reversal_descriptor.h"
#include "engine/tasks/registry/task_factory.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/task.h"
#include "engine/tasks/translation/translation_descriptor.h"

namespace ascope {

TaskRegistry& TaskRegistry::instance() {
  // Built on first use, so registration order never depends on static initialisation order.
  static TaskRegistry* registry = [] {
    auto* r = new TaskRegistry;
    for (TaskDescriptor d : {imageClassificationTaskDescriptor(), sentimentTaskDescriptor(),
                             translationTaskDescriptor(), digitOrderTaskDescriptor(),
                             letterReversalTaskDescriptor()}) {
      r->add(std::move(d));
    }
    return r;
  }();
  return *registry;
}

namespace {

/// Figures a run folder can store and every view can tell apart: valid distinct keys, one
/// headline at most, a title to show.
Status checkMetrics(const TaskDescriptor& d) {
  int headlines = 0;
  for (std::size_t i = 0; i < d.metrics.size(); ++i) {
    const MetricInfo& m = d.metrics[i];
    if (!isMetricKey(m.key)) {
      return Error{"task \"" + d.id + "\": \"" + m.key + "\" cannot name a figure"};
    }
    if (m.title.empty()) return Error{"task \"" + d.id + "\": figure " + m.key + " has no title"};
    for (std::size_t j = 0; j < i; ++j) {
      if (d.metrics[j].key == m.key) {
        return Error{"task \"" + d.id + "\" declares figure " + m.key + " twice"};
      }
    }
    headlines += m.headline ? 1 : 0;
    if (m.headline && !m.tracked) {
      return Error{"task \"" + d.id + "\": its headline figure " + m.key + " must be tracked"};
    }
  }
  if (headlines > 1) return Error{"task \"" + d.id + "\" has more than one headline figure"};
  // A second scoring's figures are stored under their own keys: declared like any other, so that
  // every report titles them.
  for (const ExtraEvaluationPass& pass : d.extra_evaluation_passes) {
    for (const std::string& key : pass.figures) {
      if (findMetric(d.metrics, key) == nullptr ||
          findMetric(d.metrics, pass.prefix + key) == nullptr) {
        return Error{"task \"" + d.id + "\": its evaluation pass \"" + pass.prefix + "\" reports " +
                     key + " as " + pass.prefix + key + ", and the task must declare both figures"};
      }
    }
  }
  return {};
}

}  // namespace

Status TaskRegistry::add(TaskDescriptor d) {
  if (d.id.empty()) return Error{"a task needs an id"};
  if (d.presets.empty() || !d.make_preset || !d.validate || !d.model_shape || !d.set_model_shape ||
      !d.image_side || !d.attention_axes || !d.step_flops || !d.make_training_task ||
      !d.make_inference_task) {
    return Error{"task \"" + d.id + "\" lacks a preset or a factory"};
  }
  if (Status s = checkMetrics(d); !s.ok()) return s;
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

std::vector<MetricInfo> declaredMetrics(std::string_view id) {
  const TaskDescriptor* d = TaskRegistry::instance().find(id);
  return d ? d->metrics : std::vector<MetricInfo>{};
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
                                                  const torch::Device& device, bool with_data,
                                                  std::vector<std::string>* warnings) {
  Expected<const TaskDescriptor*> task = findTask(config.task);
  if (!task.ok()) return Error{task.error()};
  TaskBuild build{config, device, run_dir, warnings, {}};
  build.with_data = with_data;
  return (*task)->make_inference_task(build);
}

}  // namespace ascope
