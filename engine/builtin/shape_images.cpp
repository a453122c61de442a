#include "engine/builtin/shape_images.h"

#include <algorithm>
#include <array>
#include <cstdlib>

#include "engine/builtin/seeded_random.h"
#include "engine/builtin/shape_masks.h"

namespace ascope {
namespace {

// All geometry is in eighths of a pixel and all colour maths in integers: see shape_masks.h.
constexpr std::int64_t kSubpixel = 8;
// 4 x 4 samples per pixel, for anti-aliased edges.
constexpr int kSamplesPerAxis = 4;
constexpr int kSamplesPerPixel = kSamplesPerAxis * kSamplesPerAxis;
constexpr std::int64_t kFixedOne = 16384;

// cos and sin of 0, 3, 6, 9 and 12 degrees in Q14, written out so no libm is involved. Rotations
// stay within +-12 degrees so that a square never looks like a diamond, nor a plus like an x.
constexpr std::array<std::int64_t, 5> kCos{16384, 16362, 16294, 16182, 16026};
constexpr std::array<std::int64_t, 5> kSin{0, 857, 1713, 2563, 3406};

struct Rgb {
  int r = 0;
  int g = 0;
  int b = 0;
};

/// hue in [0, 360), saturation and value in [0, 255].
Rgb hsvToRgb(int hue, int saturation, int value) {
  const int sector = hue / 60;
  const int rest = (hue % 60) * 255 / 60;
  const int p = value * (255 - saturation) / 255;
  const int q = value * (255 - saturation * rest / 255) / 255;
  const int t = value * (255 - saturation * (255 - rest) / 255) / 255;
  switch (sector) {
    case 0:
      return {value, t, p};
    case 1:
      return {q, value, p};
    case 2:
      return {p, value, t};
    case 3:
      return {p, q, value};
    case 4:
      return {t, p, value};
    default:
      return {value, p, q};
  }
}

std::uint8_t clampByte(int value) {
  return static_cast<std::uint8_t>(std::clamp(value, 0, 255));
}

/// Smooth random texture: random values on a coarse grid, bilinearly interpolated per pixel.
void addValueNoise(SeededRandom& random, int size, int cells, int amplitude,
                   std::vector<int>& out) {
  const int stride = cells + 1;
  std::vector<int> grid(static_cast<std::size_t>(stride * stride));
  for (int& value : grid) value = random.between(-amplitude, amplitude);
  const int denominator = size;  // pixel centre positions are measured in 1/size of a cell
  for (int y = 0; y < size; ++y) {
    const int gy_scaled = (2 * y + 1) * cells;  // 2 * size * (grid coordinate of the centre)
    const int gy = std::min(gy_scaled / (2 * denominator), cells - 1);
    const int fy = gy_scaled - gy * 2 * denominator;  // in [0, 2 * size]
    for (int x = 0; x < size; ++x) {
      const int gx_scaled = (2 * x + 1) * cells;
      const int gx = std::min(gx_scaled / (2 * denominator), cells - 1);
      const int fx = gx_scaled - gx * 2 * denominator;
      const int span = 2 * denominator;
      const int top = grid[gy * stride + gx] * (span - fx) + grid[gy * stride + gx + 1] * fx;
      const int bottom =
          grid[(gy + 1) * stride + gx] * (span - fx) + grid[(gy + 1) * stride + gx + 1] * fx;
      out[static_cast<std::size_t>(y * size + x)] +=
          (top * (span - fy) + bottom * fy) / (span * span);
    }
  }
}

/// Per-pixel coverage of the shape, 0 .. kSamplesPerPixel.
std::vector<int> rasterise(SeededRandom& random, ShapeKind kind, int size) {
  // Half-size between 7/32 and 3/8 of the image: 14 to 24 px across at 32 px, so even the
  // smallest object spans a few 4 x 4 patches and its outline is clear.
  const std::int64_t full = static_cast<std::int64_t>(size) * kSubpixel;
  const std::int64_t half =
      random.between(static_cast<int>(full * 7 / 32), static_cast<int>(full * 3 / 8));
  const std::int64_t margin = kSubpixel;
  const std::int64_t cx =
      random.between(static_cast<int>(half + margin), static_cast<int>(full - half - margin));
  const std::int64_t cy =
      random.between(static_cast<int>(half + margin), static_cast<int>(full - half - margin));
  const int turn = random.between(-4, 4);
  const std::int64_t cosine = kCos[static_cast<std::size_t>(std::abs(turn))];
  const std::int64_t sine =
      turn < 0 ? -kSin[static_cast<std::size_t>(-turn)] : kSin[static_cast<std::size_t>(turn)];

  std::vector<int> coverage(static_cast<std::size_t>(size * size), 0);
  // Rotated shapes reach at most sqrt(2) * half from the centre; only look there.
  const std::int64_t reach = (half * 3 / 2) / kSubpixel + 1;
  const auto first = [&](std::int64_t centre) {
    return static_cast<int>(std::max<std::int64_t>(0, centre / kSubpixel - reach));
  };
  const auto last = [&](std::int64_t centre) {
    return static_cast<int>(std::min<std::int64_t>(size - 1, centre / kSubpixel + reach));
  };
  for (int y = first(cy); y <= last(cy); ++y) {
    for (int x = first(cx); x <= last(cx); ++x) {
      int hits = 0;
      for (int sy = 0; sy < kSamplesPerAxis; ++sy) {
        for (int sx = 0; sx < kSamplesPerAxis; ++sx) {
          const std::int64_t dx = x * kSubpixel + 2 * sx + 1 - cx;
          const std::int64_t dy = y * kSubpixel + 2 * sy + 1 - cy;
          const std::int64_t u = (cosine * dx + sine * dy) * kShapeUnit / (half * kFixedOne);
          const std::int64_t v = (cosine * dy - sine * dx) * kShapeUnit / (half * kFixedOne);
          if (insideShape(kind, u, v)) ++hits;
        }
      }
      coverage[static_cast<std::size_t>(y * size + x)] = hits;
    }
  }
  return coverage;
}

ImageSample drawSample(SeededRandom& random, int label, int size) {
  // Colours: a dull background and a saturated, brighter object of a clearly different hue. One
  // draw per statement: the order of evaluation of function arguments differs between compilers.
  const int background_hue = random.between(0, 359);
  const int background_saturation = random.between(30, 100);
  const int background_value = random.between(50, 120);
  const Rgb background = hsvToRgb(background_hue, background_saturation, background_value);
  const int object_hue = (background_hue + random.between(60, 300)) % 360;
  const int object_saturation = random.between(190, 255);
  const int object_value = random.between(190, 255);
  const Rgb object = hsvToRgb(object_hue, object_saturation, object_value);

  // Background texture: two octaves of luminance noise.
  std::vector<int> texture(static_cast<std::size_t>(size * size), 0);
  addValueNoise(random, size, 4, 20, texture);
  addValueNoise(random, size, 8, 8, texture);

  const std::vector<int> coverage = rasterise(random, static_cast<ShapeKind>(label), size);

  ImageSample sample;
  sample.label = label;
  const std::size_t plane = static_cast<std::size_t>(size * size);
  sample.pixels.resize(3 * plane);
  const std::array<int, 3> back{background.r, background.g, background.b};
  const std::array<int, 3> front{object.r, object.g, object.b};
  for (std::size_t i = 0; i < plane; ++i) {
    const int alpha = coverage[i];
    for (std::size_t c = 0; c < 3; ++c) {
      const int base = back[c] + texture[i];
      const int mixed = (base * (kSamplesPerPixel - alpha) + front[c] * alpha) / kSamplesPerPixel;
      // Mild sensor-like noise on every pixel, object included.
      sample.pixels[c * plane + i] = clampByte(mixed + random.between(-8, 8));
    }
  }
  return sample;
}

std::vector<ImageSample> drawSplit(SeededRandom& random, int count, int size) {
  std::vector<int> labels(static_cast<std::size_t>(std::max(count, 0)));
  for (std::size_t i = 0; i < labels.size(); ++i) {
    labels[i] = static_cast<int>(i % kShapeKindCount);
  }
  random.shuffle(labels);
  std::vector<ImageSample> samples;
  samples.reserve(labels.size());
  for (int label : labels) samples.push_back(drawSample(random, label, size));
  return samples;
}

}  // namespace

ImageDataset generateShapeImages(const ShapeImagesOptions& options) {
  const int size = std::clamp(options.image_size, 16, 256);
  ImageDataset dataset;
  dataset.height = size;
  dataset.width = size;
  for (int kind = 0; kind < kShapeKindCount; ++kind) {
    dataset.class_names.push_back(shapeName(static_cast<ShapeKind>(kind)));
  }
  SeededRandom random(options.seed);
  dataset.train = drawSplit(random, options.train_count, size);
  dataset.test = drawSplit(random, options.test_count, size);
  return dataset;
}

}  // namespace ascope
