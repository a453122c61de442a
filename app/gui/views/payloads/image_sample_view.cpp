// ImagePayload in the Sample dock: the picture, scaled without smoothing, with the verdict.
#include "app/gui/views/payloads/sample_payload_views.h"
#include "app/gui/views/sample/rgb_image_conversion.h"
#include "widgets/samples/sample_panel.h"

namespace ascope {

SamplePayloadView imageSampleView() {
  return {ImagePayload::kKind,
          [](SamplePanel& panel, const SamplePrediction& sample, const TaskDescriptor*) {
            const ImagePayload& image = *sample.payloads.find<ImagePayload>();
            panel.setImagePrediction(
                {toRgbImage(image.image), QString::fromStdString(sample.expected),
                 QString::fromStdString(sample.answer), static_cast<float>(sample.probability)});
          }};
}

}  // namespace ascope
