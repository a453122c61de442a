#pragma once
// Binary PPM (netpbm P6) images, the one image format the engine decodes without OpenCV: a build
// for a GPU server (no OpenCV) can still classify an image with `infer --image`, and the built-in
// dataset's debug output (builtin/ppm_writer.h) reads back. 8-bit samples only (maxval ≤ 255).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {

// Named for its layout: the GUI's RgbImage (widgets/images/rgb_image.h) is channel-planar, and both
// end up in one binary.
struct InterleavedRgbImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;  ///< interleaved R, G, B; row after row
};

/// True when `bytes` start like a binary PPM ("P6").
bool looksLikePpm(std::string_view bytes);

/// The fields of a P6 header and where the pixels start.
struct PpmHeader {
  long width = 0;
  long height = 0;
  long maxval = 0;
  std::size_t pixel_offset = 0;
};

/// Parses only the header, so that the size can be checked before anything is allocated. Errors
/// as decodePpm's (no magic, malformed header, a side of 0 or over 16384, more than 64 M pixels,
/// maxval outside 1..255).
Expected<PpmHeader> parsePpmHeader(std::string_view bytes, const std::string& name);

/// Parses a P6 file held in memory. Errors name `name` and what is wrong (bad header, a side of 0
/// or over 16384, more than 64 M pixels, maxval outside 1..255, too few pixel bytes).
Expected<InterleavedRgbImage> decodePpm(std::string_view bytes, const std::string& name);

/// Channel-planar RGB (all R, then G, then B) of height x width, resampled bilinearly (pixel
/// centres aligned), as the models take their input.
std::vector<std::uint8_t> toPlanar(const InterleavedRgbImage& image, int height, int width);

}  // namespace ascope
