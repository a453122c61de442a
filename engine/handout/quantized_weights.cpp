#include "engine/handout/quantized_weights.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ascope {

float quantizeWeights(const float* values, std::size_t count, std::vector<std::uint8_t>& out) {
  float scale = 0.0f;
  for (std::size_t i = 0; i < count; ++i) {
    if (std::isfinite(values[i])) scale = std::max(scale, values[i]);
  }
  out.reserve(out.size() + count);
  const float factor = scale > 0.0f ? kTopCode / scale : 0.0f;
  for (std::size_t i = 0; i < count; ++i) {
    const float v = values[i];
    if (!std::isfinite(v)) {
      out.push_back(kMissingCode);
      continue;
    }
    const long code = std::lround(std::max(0.0f, v) * factor);
    out.push_back(static_cast<std::uint8_t>(std::clamp(code, 0L, static_cast<long>(kTopCode))));
  }
  return scale;
}

float dequantizeWeight(std::uint8_t code, float scale) {
  if (code == kMissingCode) return std::numeric_limits<float>::quiet_NaN();
  return static_cast<float>(code) / kTopCode * scale;
}

float quantizeSigned(const float* values, std::size_t count, std::vector<std::int8_t>& out) {
  float scale = 0.0f;
  for (std::size_t i = 0; i < count; ++i) {
    if (std::isfinite(values[i])) scale = std::max(scale, std::abs(values[i]));
  }
  out.reserve(out.size() + count);
  const float factor = scale > 0.0f ? 127.0f / scale : 0.0f;
  for (std::size_t i = 0; i < count; ++i) {
    const float v = std::isfinite(values[i]) ? values[i] : 0.0f;
    out.push_back(static_cast<std::int8_t>(std::clamp(std::lround(v * factor), -127L, 127L)));
  }
  return scale;
}

QuantizedRange quantizeRange(const float* values, std::size_t count,
                             std::vector<std::uint8_t>& out) {
  QuantizedRange range{std::numeric_limits<float>::infinity(),
                       -std::numeric_limits<float>::infinity()};
  for (std::size_t i = 0; i < count; ++i) {
    if (!std::isfinite(values[i])) continue;
    range.low = std::min(range.low, values[i]);
    range.high = std::max(range.high, values[i]);
  }
  if (range.low > range.high) range = {0.0f, 0.0f};
  out.reserve(out.size() + count);
  const float span = range.high - range.low;
  for (std::size_t i = 0; i < count; ++i) {
    if (!std::isfinite(values[i])) {
      out.push_back(kMissingCode);
      continue;
    }
    const long code = span > 0.0f ? std::lround((values[i] - range.low) / span * kTopCode) : 0L;
    out.push_back(static_cast<std::uint8_t>(std::clamp(code, 0L, static_cast<long>(kTopCode))));
  }
  return range;
}

float dequantizeRange(std::uint8_t code, const QuantizedRange& range) {
  if (code == kMissingCode) return std::numeric_limits<float>::quiet_NaN();
  return range.low + static_cast<float>(code) / kTopCode * (range.high - range.low);
}

}  // namespace ascope
