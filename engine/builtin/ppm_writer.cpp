#include "engine/builtin/ppm_writer.h"

#include <cstdint>
#include <fstream>

namespace ascope {
namespace {

constexpr std::uint8_t kGapGrey = 128;

Status writeInterleaved(const std::string& path, const std::vector<std::uint8_t>& rgb, int height,
                        int width) {
  std::ofstream file(path, std::ios::binary);
  if (!file) return Error{path + ": cannot open for writing"};
  file << "P6\n" << width << ' ' << height << "\n255\n";
  file.write(reinterpret_cast<const char*>(rgb.data()), static_cast<std::streamsize>(rgb.size()));
  if (!file) return Error{path + ": write failed"};
  return Status::okStatus();
}

bool hasSize(const ImageSample& sample, int height, int width) {
  return sample.pixels.size() == static_cast<std::size_t>(3 * height * width);
}

}  // namespace

Status writePpm(const std::string& path, const ImageSample& sample, int height, int width) {
  return writeContactSheetPpm(path, {sample}, height, width, 1);
}

Status writeContactSheetPpm(const std::string& path, const std::vector<ImageSample>& samples,
                            int height, int width, int columns) {
  if (samples.empty() || columns <= 0 || height <= 0 || width <= 0) {
    return Error{path + ": nothing to write (no samples or a non-positive size)"};
  }
  const bool single = samples.size() == 1;
  const int gap = single ? 0 : 1;
  const int rows = static_cast<int>((samples.size() + columns - 1) / columns);
  const int used_columns = single ? 1 : columns;
  const int sheet_width = used_columns * (width + gap) - gap;
  const int sheet_height = rows * (height + gap) - gap;
  std::vector<std::uint8_t> rgb(static_cast<std::size_t>(3 * sheet_width * sheet_height), kGapGrey);
  const std::size_t plane = static_cast<std::size_t>(height * width);
  for (std::size_t n = 0; n < samples.size(); ++n) {
    if (!hasSize(samples[n], height, width)) {
      return Error{path + ": sample " + std::to_string(n) + " has " +
                   std::to_string(samples[n].pixels.size()) + " bytes, expected " +
                   std::to_string(3 * plane)};
    }
    const int left = static_cast<int>(n % static_cast<std::size_t>(used_columns)) * (width + gap);
    const int top = static_cast<int>(n / static_cast<std::size_t>(used_columns)) * (height + gap);
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        const std::size_t source = static_cast<std::size_t>(y * width + x);
        const std::size_t target = 3 * static_cast<std::size_t>((top + y) * sheet_width + left + x);
        for (std::size_t c = 0; c < 3; ++c) rgb[target + c] = samples[n].pixels[c * plane + source];
      }
    }
  }
  return writeInterleaved(path, rgb, sheet_height, sheet_width);
}

}  // namespace ascope
