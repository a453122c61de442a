// checkMsgpackLimits on arbitrary bytes, then nlohmann's decoder on whatever it lets through: the
// scan must never read outside the buffer, and what it accepts must decode without overflowing
// the stack or allocating beyond the input (ASan reports both). Same for the JSON bracket scan;
// the image header reader must stay inside the buffer and within its limits.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "engine/core/json_limits.h"
#include "engine/core/msgpack_limits.h"
#include "engine/imaging/image_header.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ascope::fuzz::check;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const ascope::Status msgpack = ascope::checkMsgpackLimits(bytes, "fuzz.msgpack");
  if (msgpack.ok()) {
    try {
      const nlohmann::json decoded = nlohmann::json::from_msgpack(bytes);
      check(!decoded.is_discarded());
    } catch (const nlohmann::json::exception&) {
      // invalid UTF-8 in a string and the like: refused by the decoder, which is fine
    }
  } else {
    check(msgpack.error().rfind("fuzz.msgpack", 0) == 0);
  }
  const ascope::Status json = ascope::checkJsonLimits(bytes, "fuzz.json");
  if (json.ok()) {
    try {
      const nlohmann::json parsed = nlohmann::json::parse(bytes);
      (void)parsed.dump();
    } catch (const nlohmann::json::exception&) {
    }
  } else {
    check(json.error().rfind("fuzz.json", 0) == 0);
  }
  const ascope::Expected<ascope::ImageSize> image = ascope::checkImageHeader(bytes, "fuzz.png");
  if (image.ok()) {
    check(image->width >= 1 && image->width <= ascope::kMaxImageSide);
    check(image->height >= 1 && image->height <= ascope::kMaxImageSide);
    check(image->width * image->height <= ascope::kMaxImagePixels);
  } else {
    check(image.error().rfind("fuzz.png", 0) == 0);
  }
  return 0;
}
