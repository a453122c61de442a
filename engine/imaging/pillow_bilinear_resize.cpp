#include "engine/imaging/pillow_bilinear_resize.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace ascope {
namespace {

// Pillow's fixed point for 8-bit images: coefficients carry 22 fractional bits, so that a sum of
// 255 × (weights summing to 1) stays inside a signed 32-bit integer.
constexpr int kPrecisionBits = 32 - 8 - 2;

double triangle(double x) {
  x = std::abs(x);
  return x < 1.0 ? 1.0 - x : 0.0;
}

/// For every output position along one axis: the first input position read and its weights.
struct AxisWeights {
  int taps = 0;                     ///< weights per output position (some trailing ones 0)
  std::vector<int> first;           ///< first input position of each output position
  std::vector<int> count;           ///< input positions read by each output position
  std::vector<std::int32_t> fixed;  ///< taps weights per output position, fixed point
};

AxisWeights axisWeights(int in_size, int out_size) {
  const double scale = static_cast<double>(in_size) / out_size;
  const double filter_scale = std::max(scale, 1.0);
  const double support = 1.0 * filter_scale;  // the triangle's support is 1
  AxisWeights w;
  w.taps = static_cast<int>(std::ceil(support)) * 2 + 1;
  w.first.resize(static_cast<std::size_t>(out_size));
  w.count.resize(static_cast<std::size_t>(out_size));
  w.fixed.assign(static_cast<std::size_t>(out_size) * w.taps, 0);
  std::vector<double> k(static_cast<std::size_t>(w.taps));
  for (int o = 0; o < out_size; ++o) {
    const double center = (o + 0.5) * scale;
    // Pillow rounds by adding 0.5 and truncating towards zero; the clamps follow.
    const int lo = std::max(static_cast<int>(center - support + 0.5), 0);
    const int hi = std::min(static_cast<int>(center + support + 0.5), in_size);
    const int n = hi - lo;
    double sum = 0;
    for (int i = 0; i < n; ++i) {
      k[static_cast<std::size_t>(i)] = triangle((i + lo - center + 0.5) / filter_scale);
      sum += k[static_cast<std::size_t>(i)];
    }
    for (int i = 0; i < n; ++i) {
      const double normal = sum != 0.0 ? k[static_cast<std::size_t>(i)] / sum : 0.0;
      const double fixed = normal * (1 << kPrecisionBits);
      w.fixed[static_cast<std::size_t>(o) * w.taps + i] =
          static_cast<std::int32_t>(normal < 0 ? fixed - 0.5 : fixed + 0.5);
    }
    w.first[static_cast<std::size_t>(o)] = lo;
    w.count[static_cast<std::size_t>(o)] = n;
  }
  return w;
}

std::uint8_t clip8(std::int32_t sum) {
  const std::int32_t v = sum >> kPrecisionBits;
  return static_cast<std::uint8_t>(std::clamp(v, 0, 255));
}

/// Output position `o` of one line: `line` holds input positions from `origin` on, `stride` apart
/// (1 along a row, the row length down a column).
std::uint8_t weighted(const std::uint8_t* line, int origin, std::ptrdiff_t stride,
                      const AxisWeights& w, int o) {
  const auto at = static_cast<std::size_t>(o);
  const std::int32_t* k = &w.fixed[at * static_cast<std::size_t>(w.taps)];
  const std::uint8_t* p = line + static_cast<std::ptrdiff_t>(w.first[at] - origin) * stride;
  std::int32_t sum = 1 << (kPrecisionBits - 1);  // rounds the final shift to nearest
  for (int i = 0; i < w.count[at]; ++i) sum += static_cast<std::int32_t>(p[i * stride]) * k[i];
  return clip8(sum);
}

}  // namespace

std::vector<std::uint8_t> resizeBilinearLikePillow(const std::vector<std::uint8_t>& pixels,
                                                   int channels, int height, int width,
                                                   int out_height, int out_width) {
  if (out_height == height && out_width == width) return pixels;  // Pillow copies, too
  const AxisWeights across = axisWeights(width, out_width);
  const AxisWeights down = axisWeights(height, out_height);
  // The row pass only touches the input rows some output row reads, as Pillow's does; which rows
  // does not change a value, only the work.
  const int row_first = down.first.front();
  const int row_last = down.first.back() + down.count.back();
  const int rows = row_last - row_first;
  std::vector<std::uint8_t> wide(static_cast<std::size_t>(rows) * out_width);
  std::vector<std::uint8_t> out(static_cast<std::size_t>(channels) * out_height * out_width);
  for (int c = 0; c < channels; ++c) {
    const std::uint8_t* plane = pixels.data() + static_cast<std::size_t>(c) * height * width;
    if (out_width != width) {
      for (int y = 0; y < rows; ++y) {
        const std::uint8_t* line = plane + static_cast<std::size_t>(row_first + y) * width;
        for (int x = 0; x < out_width; ++x) {
          wide[static_cast<std::size_t>(y) * out_width + x] = weighted(line, 0, 1, across, x);
        }
      }
    } else {
      std::copy_n(plane + static_cast<std::size_t>(row_first) * width,
                  static_cast<std::size_t>(rows) * width, wide.begin());
    }
    std::uint8_t* target = out.data() + static_cast<std::size_t>(c) * out_height * out_width;
    if (out_height == height) {
      std::copy_n(wide.begin(), static_cast<std::size_t>(rows) * out_width, target);
      continue;
    }
    for (int y = 0; y < out_height; ++y) {
      for (int x = 0; x < out_width; ++x) {
        target[static_cast<std::size_t>(y) * out_width + x] =
            weighted(wide.data() + x, row_first, out_width, down, y);
      }
    }
  }
  return out;
}

}  // namespace ascope
