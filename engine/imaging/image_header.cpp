#include "engine/imaging/image_header.h"

#include <cstdlib>

#include "engine/imaging/ppm_image.h"

namespace ascope {
namespace {

std::uint64_t bigEndian(std::string_view bytes, std::size_t at, std::size_t count) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < count; ++i)
    value = (value << 8) | static_cast<std::uint8_t>(bytes[at + i]);
  return value;
}

std::uint64_t littleEndian(std::string_view bytes, std::size_t at, std::size_t count) {
  std::uint64_t value = 0;
  for (std::size_t i = count; i-- > 0;)
    value = (value << 8) | static_cast<std::uint8_t>(bytes[at + i]);
  return value;
}

Error cutShort(const std::string& name, const char* format) {
  return Error{name + ": " + format + " header is cut short"};
}

Expected<ImageSize> pngSize(std::string_view bytes, const std::string& name) {
  // Signature (8), IHDR length (4), "IHDR" (4), width (4), height (4): IHDR must come first.
  if (bytes.size() < 24) return cutShort(name, "PNG");
  if (bytes.substr(12, 4) != "IHDR")
    return Error{name + ": PNG does not start with its IHDR chunk"};
  return ImageSize{bigEndian(bytes, 16, 4), bigEndian(bytes, 20, 4), "PNG"};
}

bool isStartOfFrame(std::uint8_t marker) {
  // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC), which share the range.
  return marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc;
}

Expected<ImageSize> jpegSize(std::string_view bytes, const std::string& name) {
  std::size_t at = 2;  // after SOI
  while (true) {
    if (at >= bytes.size()) return Error{name + ": JPEG has no frame header (SOF) before its end"};
    if (static_cast<std::uint8_t>(bytes[at]) != 0xff) {
      return Error{name + ": JPEG marker expected at byte " + std::to_string(at)};
    }
    while (at < bytes.size() && static_cast<std::uint8_t>(bytes[at]) == 0xff) ++at;  // fill bytes
    if (at >= bytes.size()) return cutShort(name, "JPEG");
    const auto marker = static_cast<std::uint8_t>(bytes[at++]);
    if (marker == 0x01 || marker == 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (marker == 0xd9 || marker == 0xda) {
      return Error{name + ": JPEG has no frame header (SOF) before its image data"};
    }
    if (bytes.size() - at < 2) return cutShort(name, "JPEG");
    const std::uint64_t length = bigEndian(bytes, at, 2);  // includes its own two bytes
    if (length < 2) return Error{name + ": JPEG segment length " + std::to_string(length)};
    if (isStartOfFrame(marker)) {
      // length (2), precision (1), height (2), width (2)
      if (bytes.size() - at < 7) return cutShort(name, "JPEG");
      return ImageSize{bigEndian(bytes, at + 5, 2), bigEndian(bytes, at + 3, 2), "JPEG"};
    }
    at += static_cast<std::size_t>(length);
  }
}

Expected<ImageSize> bmpSize(std::string_view bytes, const std::string& name) {
  if (bytes.size() < 26) return cutShort(name, "BMP");
  if (littleEndian(bytes, 14, 4) == 12) {  // BITMAPCOREHEADER: 16-bit sides
    return ImageSize{littleEndian(bytes, 18, 2), littleEndian(bytes, 20, 2), "BMP"};
  }
  // Signed 32-bit sides; a negative height means rows stored top-down.
  const auto width = static_cast<std::int32_t>(littleEndian(bytes, 18, 4));
  const auto height = static_cast<std::int32_t>(littleEndian(bytes, 22, 4));
  return ImageSize{width < 0 ? 0 : static_cast<std::uint64_t>(width),
                   static_cast<std::uint64_t>(std::llabs(static_cast<long long>(height))), "BMP"};
}

}  // namespace

Expected<ImageSize> readImageSize(std::string_view bytes, const std::string& name) {
  if (bytes.substr(0, 8) == std::string_view("\x89PNG\r\n\x1a\n", 8)) return pngSize(bytes, name);
  if (bytes.size() >= 3 && static_cast<std::uint8_t>(bytes[0]) == 0xff &&
      static_cast<std::uint8_t>(bytes[1]) == 0xd8 && static_cast<std::uint8_t>(bytes[2]) == 0xff) {
    return jpegSize(bytes, name);
  }
  if (looksLikePpm(bytes)) {
    Expected<PpmHeader> header = parsePpmHeader(bytes, name);
    if (!header.ok()) return Error{header.error()};
    return ImageSize{static_cast<std::uint64_t>(header->width),
                     static_cast<std::uint64_t>(header->height), "PPM"};
  }
  if (bytes.substr(0, 2) == "BM") return bmpSize(bytes, name);
  if (bytes.substr(0, 6) == "GIF87a" || bytes.substr(0, 6) == "GIF89a") {
    if (bytes.size() < 10) return cutShort(name, "GIF");
    return ImageSize{littleEndian(bytes, 6, 2), littleEndian(bytes, 8, 2), "GIF"};
  }
  return Error{name + ": is not a PNG, JPEG, BMP, GIF or binary PPM (P6) image"};
}

Expected<ImageSize> checkImageHeader(std::string_view bytes, const std::string& name) {
  Expected<ImageSize> size = readImageSize(bytes, name);
  if (!size.ok()) return size;
  const std::string shown = std::string(size->format) + " image of " + std::to_string(size->width) +
                            " × " + std::to_string(size->height) + " pixels";
  if (size->width < 1 || size->height < 1) return Error{name + ": " + shown + " is empty"};
  // Sides are below 2^32, so the product cannot overflow.
  if (size->width > kMaxImageSide || size->height > kMaxImageSide ||
      size->width * size->height > kMaxImagePixels) {
    return Error{name + ": " + shown + " is over the limit (" + std::to_string(kMaxImageSide) +
                 " per side, " + std::to_string(kMaxImagePixels) + " pixels)"};
  }
  return size;
}

}  // namespace ascope
