#include "engine/imaging/ppm_image.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "engine/imaging/image_header.h"

namespace ascope {
namespace {

constexpr long kMaxPpmSide = kMaxImageSide;

/// Header tokens are separated by whitespace; '#' starts a comment up to the end of the line.
class HeaderScanner {
 public:
  explicit HeaderScanner(std::string_view bytes) : bytes_(bytes) {}

  /// The next unsigned decimal number, or -1 when there is none (or it is absurdly long).
  long number() {
    skipSpaceAndComments();
    long value = 0;
    std::size_t digits = 0;
    while (at_ < bytes_.size() && std::isdigit(static_cast<unsigned char>(bytes_[at_]))) {
      if (++digits > 9) return -1;
      value = value * 10 + (bytes_[at_++] - '0');
    }
    return digits == 0 ? -1 : value;
  }

  /// After maxval exactly one whitespace byte, then the pixels.
  bool endOfHeader() {
    if (at_ >= bytes_.size() || !std::isspace(static_cast<unsigned char>(bytes_[at_])))
      return false;
    ++at_;
    return true;
  }

  std::size_t position() const { return at_; }

 private:
  void skipSpaceAndComments() {
    while (at_ < bytes_.size()) {
      if (std::isspace(static_cast<unsigned char>(bytes_[at_]))) {
        ++at_;
      } else if (bytes_[at_] == '#') {
        while (at_ < bytes_.size() && bytes_[at_] != '\n') ++at_;
      } else {
        break;
      }
    }
  }

  std::string_view bytes_;
  std::size_t at_ = 2;  // after "P6"
};

}  // namespace

bool looksLikePpm(std::string_view bytes) {
  return bytes.size() >= 2 && bytes[0] == 'P' && bytes[1] == '6';
}

Expected<PpmHeader> parsePpmHeader(std::string_view bytes, const std::string& name) {
  if (!looksLikePpm(bytes)) return Error{name + ": not a binary PPM (no P6 magic)"};
  HeaderScanner header(bytes);
  const long width = header.number();
  const long height = header.number();
  const long maxval = header.number();
  if (width < 0 || height < 0 || maxval < 0 || !header.endOfHeader()) {
    return Error{name + ": malformed PPM header (expected P6 width height maxval)"};
  }
  if (width < 1 || height < 1 || width > kMaxPpmSide || height > kMaxPpmSide) {
    return Error{name + ": PPM size " + std::to_string(width) + "x" + std::to_string(height) +
                 " is outside 1.." + std::to_string(kMaxPpmSide)};
  }
  if (static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height) > kMaxImagePixels) {
    return Error{name + ": PPM size " + std::to_string(width) + "x" + std::to_string(height) +
                 " is over the limit of " + std::to_string(kMaxImagePixels) + " pixels"};
  }
  if (maxval < 1 || maxval > 255) {
    return Error{name + ": PPM maxval " + std::to_string(maxval) +
                 " is not supported (8-bit images only, maxval 1..255)"};
  }
  return PpmHeader{width, height, maxval, header.position()};
}

Expected<InterleavedRgbImage> decodePpm(std::string_view bytes, const std::string& name) {
  Expected<PpmHeader> parsed = parsePpmHeader(bytes, name);
  if (!parsed.ok()) return Error{parsed.error()};
  const long width = parsed->width;
  const long height = parsed->height;
  const long maxval = parsed->maxval;
  const std::size_t offset = parsed->pixel_offset;
  const std::size_t needed = 3 * static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  const std::size_t available = bytes.size() - offset;
  if (available < needed) {
    return Error{name + ": PPM pixel data is cut short: " + std::to_string(available) + " of " +
                 std::to_string(needed) + " bytes"};
  }
  InterleavedRgbImage image;
  image.width = static_cast<int>(width);
  image.height = static_cast<int>(height);
  image.rgb.resize(needed);
  for (std::size_t i = 0; i < needed; ++i) {
    const auto v = static_cast<unsigned char>(bytes[offset + i]);
    // Scale to 0..255 when maxval is smaller; values above maxval are clamped.
    image.rgb[i] = static_cast<std::uint8_t>(std::min<long>(255, (v * 255L + maxval / 2) / maxval));
  }
  return image;
}

std::vector<std::uint8_t> toPlanar(const InterleavedRgbImage& image, int height, int width) {
  const std::size_t plane = static_cast<std::size_t>(height) * static_cast<std::size_t>(width);
  std::vector<std::uint8_t> out(3 * plane);
  if (image.width < 1 || image.height < 1) return out;
  const double sy = static_cast<double>(image.height) / height;
  const double sx = static_cast<double>(image.width) / width;
  auto at = [&](int y, int x, int c) {
    return image.rgb[(static_cast<std::size_t>(y) * image.width + x) * 3 + c];
  };
  for (int y = 0; y < height; ++y) {
    const double fy = std::clamp((y + 0.5) * sy - 0.5, 0.0, image.height - 1.0);
    const int y0 = static_cast<int>(fy), y1 = std::min(y0 + 1, image.height - 1);
    const double wy = fy - y0;
    for (int x = 0; x < width; ++x) {
      const double fx = std::clamp((x + 0.5) * sx - 0.5, 0.0, image.width - 1.0);
      const int x0 = static_cast<int>(fx), x1 = std::min(x0 + 1, image.width - 1);
      const double wx = fx - x0;
      for (int c = 0; c < 3; ++c) {
        const double top = at(y0, x0, c) * (1 - wx) + at(y0, x1, c) * wx;
        const double bottom = at(y1, x0, c) * (1 - wx) + at(y1, x1, c) * wx;
        out[c * plane + static_cast<std::size_t>(y) * width + x] =
            static_cast<std::uint8_t>(std::lround(top * (1 - wy) + bottom * wy));
      }
    }
  }
  return out;
}

}  // namespace ascope
