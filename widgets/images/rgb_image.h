#pragma once

#include <QImage>

#include <cstdint>
#include <vector>

namespace ascope {

/// An image as the engine hands it over: channel-planar bytes (all of R, then G, then B; or one
/// grey plane), the layout of a CHW tensor after `.to(torch::kUInt8)`.
struct RgbImage {
  int width = 0;
  int height = 0;
  int channels = 3;                  ///< 3 (RGB) or 1 (grey)
  std::vector<std::uint8_t> planar;  ///< channels * height * width

  bool isValid() const;
  /// An RGB888 QImage of the same size; a null image when the buffer is inconsistent.
  QImage toQImage() const;
};

}  // namespace ascope
