#pragma once
// An image a sample shows, and for a vision transformer how its tokens map to patches: the
// probe image under the CLS token's attention, a sample's picture in the Sample dock.
#include <cstdint>
#include <vector>

#include "engine/vocabulary/payloads/payload.h"

namespace ascope {

/// Channel-planar RGB bytes (R plane, G plane, B plane).
struct ImageBuffer {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> pixels;
};

struct ImagePayload : Payload {
  static constexpr const char* kKind = "image";
  const char* kind() const override { return kKind; }

  ImageBuffer image;
  int patch_size = 0;   ///< patch side in pixels; 0: not cut into patches
  int grid_rows = 0;    ///< patches per column
  int grid_cols = 0;    ///< patches per row
  bool has_cls = true;  ///< token 0 is CLS, tokens 1.. are the patches in row-major order
};

}  // namespace ascope
