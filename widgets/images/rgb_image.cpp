#include "widgets/images/rgb_image.h"

namespace ascope {

bool RgbImage::isValid() const {
  return width > 0 && height > 0 && (channels == 1 || channels == 3) &&
         planar.size() == static_cast<size_t>(channels) * width * height;
}

QImage RgbImage::toQImage() const {
  if (!isValid()) return {};
  QImage image(width, height, QImage::Format_RGB888);
  const size_t plane = static_cast<size_t>(width) * height;
  const std::uint8_t* r = planar.data();
  const std::uint8_t* g = channels == 3 ? r + plane : r;
  const std::uint8_t* b = channels == 3 ? r + 2 * plane : r;
  for (int y = 0; y < height; ++y) {
    uchar* line = image.scanLine(y);
    const size_t row = static_cast<size_t>(y) * width;
    for (int x = 0; x < width; ++x) {
      line[3 * x + 0] = r[row + x];
      line[3 * x + 1] = g[row + x];
      line[3 * x + 2] = b[row + x];
    }
  }
  return image;
}

}  // namespace ascope
