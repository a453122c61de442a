// ImagePayload in the handout: the probe's image and its patch grid, for the page's image views;
// an image without a grid, or whose bytes do not make its size, is left out.
#include "engine/handout/handout_payload_fills.h"
#include "engine/vocabulary/payloads/image_payload.h"

namespace ascope {

HandoutPayloadFill imageHandoutFill() {
  return {ImagePayload::kKind, [](HandoutProbe& probe, const Payload& payload) {
            const auto& image = static_cast<const ImagePayload&>(payload);
            if (image.grid_rows <= 0 || image.grid_cols <= 0) return;
            probe.image.width = image.image.width;
            probe.image.height = image.image.height;
            probe.image.rgb_planar = image.image.pixels;
            probe.image.grid_rows = image.grid_rows;
            probe.image.grid_cols = image.grid_cols;
            if (!probe.image.valid()) probe.image = HandoutImage{};
          }};
}

}  // namespace ascope
