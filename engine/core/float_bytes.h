#pragma once
// Floats as little-endian IEEE 754 bytes, the same on every machine: how the run folder stores a
// positional encoding (float32) and how the handout packs its curves and scales for the browser's
// typed arrays (float32, float64). binary16 is half_float.h's.
#include <cstdint>
#include <vector>

namespace ascope {

void appendFloat32(std::vector<std::uint8_t>& out, float value);
void appendFloat64(std::vector<std::uint8_t>& out, double value);

/// Four bytes per value, and back (`bytes.size() / 4` values; a trailing partial value is
/// ignored: callers check the size first).
std::vector<std::uint8_t> packFloat32s(const std::vector<float>& values);
std::vector<float> unpackFloat32s(const std::vector<std::uint8_t>& bytes);

}  // namespace ascope
