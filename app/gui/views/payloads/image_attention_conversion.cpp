// ImagePayload on the attention panel: the probe image under the CLS overlay, with its grid.
#include "app/gui/views/payloads/attention_payload_conversions.h"
#include "app/gui/views/sample/rgb_image_conversion.h"
#include "engine/vocabulary/payloads/image_payload.h"

namespace ascope {

AttentionPayloadConversion imageAttentionConversion() {
  return {ImagePayload::kKind, [](AttentionPlotData& data, const Payload& payload) {
            const auto& image = static_cast<const ImagePayload&>(payload);
            if (image.grid_rows <= 0 || image.grid_cols <= 0) return;
            data.image.image = toRgbImage(image.image);
            data.image.grid_rows = image.grid_rows;
            data.image.grid_cols = image.grid_cols;
            data.image.has_cls_token = image.has_cls;
          }};
}

}  // namespace ascope
