#include "engine/imaging/patch_occlusion.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

#include "engine/imaging/pillow_bilinear_resize.h"

namespace ascope {

std::uint8_t neutralByte(double mean, double byte_scale) {
  const double byte = byte_scale > 0 ? mean / byte_scale : 0.0;
  return static_cast<std::uint8_t>(std::clamp(std::lround(byte), 0L, 255L));
}

Expected<ImageBuffer> occludePatch(const ImageBuffer& image, const PatchGrid& grid, int patch) {
  const int count = grid.patchCount();
  if (count <= 0)
    return Error{"occluded patch " + std::to_string(patch) + ": the model has no patches"};
  if (patch < 0 || patch >= count) {
    const std::string side = std::to_string(grid.side), size = std::to_string(grid.patch_size);
    return Error{"occluded patch " + std::to_string(patch) + " is out of range: the model's " +
                 side + "×" + side + " input has " + std::to_string(count) + " patches of " + size +
                 "×" + size + " pixels, numbered 0 to " + std::to_string(count - 1)};
  }
  const std::size_t plane = static_cast<std::size_t>(image.width) * std::max(0, image.height);
  if (image.width <= 0 || image.height <= 0 || image.pixels.size() != 3 * plane) {
    return Error{"the image must be channel-planar RGB, " + std::to_string(image.width) + "×" +
                 std::to_string(image.height) + " with " + std::to_string(image.pixels.size()) +
                 " bytes is not"};
  }
  ImageBuffer out = image;
  if (image.width != grid.side || image.height != grid.side) {
    out.pixels =
        resizeBilinearLikePillow(image.pixels, 3, image.height, image.width, grid.side, grid.side);
    out.width = out.height = grid.side;
  }
  const int top = patch / grid.patchesPerSide() * grid.patch_size;
  const int left = patch % grid.patchesPerSide() * grid.patch_size;
  const std::size_t side_plane = static_cast<std::size_t>(grid.side) * grid.side;
  for (std::size_t channel = 0; channel < 3; ++channel) {
    for (int y = top; y < top + grid.patch_size; ++y) {
      auto* row =
          out.pixels.data() + channel * side_plane + static_cast<std::size_t>(y) * grid.side;
      std::fill(row + left, row + left + grid.patch_size, grid.neutral_rgb[channel]);
    }
  }
  return out;
}

}  // namespace ascope
