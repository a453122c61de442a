#include "app/gui/views/sample/sample_conversion.h"

#include "app/gui/views/sample/rgb_image_conversion.h"
#include "engine/tasks/registry/task_registry.h"
#include "widgets/samples/sample_panel.h"

namespace ascope {

void showSamplePrediction(SamplePanel& panel, const SamplePrediction& sample) {
  const TaskDescriptor* task = TaskRegistry::instance().find(sample.task);
  const SampleKind kind = task ? task->sample : SampleKind::kLabelledText;
  const QString truth = QString::fromStdString(sample.true_label);
  const QString predicted = QString::fromStdString(sample.predicted_label);
  switch (kind) {
    case SampleKind::kTranslation:
      panel.setTranslation({QString::fromStdString(sample.text), truth, predicted,
                            static_cast<long long>(sample.step)});
      return;
    case SampleKind::kImage:
      panel.setImagePrediction(
          {toRgbImage(sample.image), truth, predicted, static_cast<float>(sample.probability)});
      return;
    case SampleKind::kLabelledText:
      panel.setTextPrediction({QString::fromStdString(sample.text), truth, predicted,
                               static_cast<float>(sample.probability)});
      return;
  }
}

}  // namespace ascope
