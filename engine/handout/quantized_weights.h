#pragma once
// How the handout packs numbers: one byte each instead of a JSON float of ten characters. An
// attention map keeps its largest weight as a float `scale` and each weight as the nearest of 255
// steps from 0 to that scale (error at most scale / 508, under 0.2 % of the map's top weight);
// the page multiplies back. Positional encodings keep their largest magnitude and 255 signed
// steps, head statistics their range and 255 steps.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ascope {

/// The code of a masked or missing value (NaN, infinite).
inline constexpr std::uint8_t kMissingCode = 255;
/// The code of the scale itself: codes 0..kTopCode are 0..scale.
inline constexpr int kTopCode = 254;

/// Appends one code per value to `out` and returns the scale: the largest finite value (0 when
/// there is none or all are ≤ 0). Negative values (not weights) become 0.
float quantizeWeights(const float* values, std::size_t count, std::vector<std::uint8_t>& out);
/// What the page shows for `code`: code / kTopCode · scale, NaN for kMissingCode.
float dequantizeWeight(std::uint8_t code, float scale);

/// Appends one signed byte per value (−127..127 of the largest magnitude, which it returns;
/// non-finite values become 0).
float quantizeSigned(const float* values, std::size_t count, std::vector<std::int8_t>& out);
inline float dequantizeSigned(std::int8_t code, float scale) {
  return static_cast<float>(code) / 127.0f * scale;
}

/// Values spread over [low, high] in kTopCode steps; NaN kept as kMissingCode.
struct QuantizedRange {
  float low = 0;
  float high = 0;
};
QuantizedRange quantizeRange(const float* values, std::size_t count,
                             std::vector<std::uint8_t>& out);
float dequantizeRange(std::uint8_t code, const QuantizedRange& range);

}  // namespace ascope
