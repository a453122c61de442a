#include "engine/core/float_bytes.h"

#include <cstring>

namespace ascope {

void appendFloat32(std::vector<std::uint8_t>& out, float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(bits >> (8 * i)));
}

void appendFloat64(std::vector<std::uint8_t>& out, double value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(bits >> (8 * i)));
}

std::vector<std::uint8_t> packFloat32s(const std::vector<float>& values) {
  std::vector<std::uint8_t> bytes;
  bytes.reserve(values.size() * 4);
  for (float v : values) appendFloat32(bytes, v);
  return bytes;
}

std::vector<float> unpackFloat32s(const std::vector<std::uint8_t>& bytes) {
  std::vector<float> values(bytes.size() / 4);
  for (std::size_t k = 0; k < values.size(); ++k) {
    std::uint32_t bits = 0;
    for (int i = 0; i < 4; ++i) bits |= std::uint32_t{bytes[4 * k + i]} << (8 * i);
    std::memcpy(&values[k], &bits, sizeof bits);
  }
  return values;
}

}  // namespace ascope
