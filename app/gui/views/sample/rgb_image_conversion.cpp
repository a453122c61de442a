#include "app/gui/views/sample/rgb_image_conversion.h"

namespace ascope {

RgbImage toRgbImage(const ImageBuffer& image) {
  RgbImage out;
  out.width = image.width;
  out.height = image.height;
  const std::size_t plane = static_cast<std::size_t>(image.width) * image.height;
  out.channels = plane > 0 && image.pixels.size() == plane ? 1 : 3;
  out.planar = image.pixels;
  return out;
}

}  // namespace ascope
