#pragma once
// IEEE 754 binary16 ⇄ float, for compact attention snapshots: weights in 0..1 keep 11 significant
// bits (a relative error under 0.05 %), at half the bytes of float32.
#include <cstdint>
#include <string>
#include <vector>

namespace ascope {

/// Rounds to the nearest binary16 (ties to even); beyond its range → ±infinity; NaN stays NaN.
std::uint16_t floatToHalf(float value);
float halfToFloat(std::uint16_t half);

/// Little-endian binary16 bytes of `values`, and back (`bytes` must hold 2 bytes per value).
std::vector<std::uint8_t> packHalves(const std::vector<float>& values);
std::vector<float> unpackHalves(const std::vector<std::uint8_t>& bytes);

}  // namespace ascope
