// decodePpm and toPlanar on arbitrary bytes: a decoded image always holds width x height pixels,
// and resampling it to a small size never reads outside it.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/imaging/ppm_image.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ascope::fuzz::check;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto image = ascope::decodePpm(bytes, "fuzz.ppm");
  if (!image.ok()) {
    check(image.error().rfind("fuzz.ppm: ", 0) == 0);
    return 0;
  }
  check(image->width >= 1 && image->height >= 1);
  check(image->rgb.size() == 3u * image->width * image->height);
  if (image->rgb.size() <= 3u * 512 * 512) {
    check(ascope::toPlanar(*image, 7, 5).size() == 3u * 7 * 5);
  }
  return 0;
}
