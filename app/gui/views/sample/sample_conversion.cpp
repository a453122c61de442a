#include "app/gui/views/sample/sample_conversion.h"

#include "app/gui/views/payloads/sample_payload_views.h"
#include "engine/tasks/registry/task_registry.h"
#include "widgets/samples/sample_panel.h"

namespace ascope {

void showSamplePrediction(SamplePanel& panel, const SamplePrediction& sample) {
  const TaskDescriptor* task = TaskRegistry::instance().find(sample.task);
  // A payload with a view of its own (an image, an alignment) is what the sample is about.
  for (const SamplePayloadView& view : samplePayloadViews()) {
    if (sample.payloads.findKind(view.kind.c_str()) != nullptr) {
      view.show(panel, sample, task);
      return;
    }
  }
  const QString expected = QString::fromStdString(sample.expected);
  const QString answer = QString::fromStdString(sample.answer);
  if (task != nullptr && task->sample_terms.free_text) {
    panel.setTranslation({QString::fromStdString(sample.input), expected, answer,
                          static_cast<long long>(sample.step)});
    return;
  }
  panel.setTextPrediction({QString::fromStdString(sample.input), expected, answer,
                           static_cast<float>(sample.probability)});
}

}  // namespace ascope
