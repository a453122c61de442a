#pragma once
// An image with one of its patches occluded, so that a vision transformer's attention can be
// compared with and without what that patch shows (a minimal pair of images). The patch is filled
// with the pixel the model's normalisation turns into 0: the model reads "nothing there", where
// black would be a strong signal of its own.
#include <array>
#include <cstdint>

#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/payloads/image_payload.h"

namespace ascope {

/// How a patch model reads its input.
struct PatchGrid {
  int side = 0;        ///< the square input's side in pixels
  int patch_size = 0;  ///< a patch's side in pixels
  /// The RGB bytes the model's normalisation maps to 0 (or as near as a byte gets).
  std::array<std::uint8_t, 3> neutral_rgb{};

  int patchesPerSide() const { return patch_size > 0 ? side / patch_size : 0; }
  int patchCount() const { return patchesPerSide() * patchesPerSide(); }
};

/// The byte b nearest to normalising to 0 when the model reads b · byte_scale − mean.
std::uint8_t neutralByte(double mean, double byte_scale);

/// `image` at the grid's input size (resized as Pillow would when it is not, as the models'
/// preprocessing does) with patch `patch` filled with neutral_rgb. Patches count from 0, row by
/// row, as the attention's patch labels do. An error names the patch and the range.
Expected<ImageBuffer> occludePatch(const ImageBuffer& image, const PatchGrid& grid, int patch);

}  // namespace ascope
