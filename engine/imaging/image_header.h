#pragma once
// Image dimensions from the first bytes of a file, before any decoder allocates its pixels. A 1 MB
// PNG can announce 20000 × 20000 pixels and make a decoder take 1.2 GB; the header says so in its
// first 24 bytes. Read here: PNG (IHDR), JPEG (the SOF marker of the frame), binary PPM, BMP, GIF.
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/vocabulary/expected.h"

namespace ascope {

inline constexpr int kMaxImageSide = 16384;
inline constexpr std::uint64_t kMaxImagePixels = std::uint64_t{64} << 20;
/// An image file is read whole before it is decoded; a photo is a few MiB.
inline constexpr std::uint64_t kMaxImageFileBytes = std::uint64_t{256} << 20;

struct ImageSize {
  std::uint64_t width = 0;
  std::uint64_t height = 0;
  const char* format = "";  ///< "PNG", "JPEG", "PPM", "BMP", "GIF"
};

/// The size the header of `bytes` announces. Errors name `name`: an unknown format ("is not a
/// PNG, JPEG, BMP, GIF or binary PPM image"), a header cut short, a JPEG without a frame header.
Expected<ImageSize> readImageSize(std::string_view bytes, const std::string& name);

/// readImageSize, then the limits: each side 1..16384 and at most 64 M pixels. The error names
/// the file and the size: "big.png: PNG image of 20000 × 20000 pixels is over the limit
/// (16384 per side, 67108864 pixels)".
Expected<ImageSize> checkImageHeader(std::string_view bytes, const std::string& name);

}  // namespace ascope
