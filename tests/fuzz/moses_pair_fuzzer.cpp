// MosesPairReader::parse on two files cut from one input: before and after its first NUL byte, or
// its two halves when there is none.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/datasets/moses_pair_reader.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ascope::fuzz::check;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = bytes.find('\0');
  const bool has_nul = nul != std::string_view::npos;
  const std::string_view source = bytes.substr(0, has_nul ? nul : size / 2);
  const std::string_view target = bytes.substr(has_nul ? nul + 1 : size / 2);

  auto loaded = ascope::MosesPairReader::parse(source, "a.en", target, "a.it");
  if (loaded.ok()) {
    check(!loaded->dataset.empty());
    for (const auto& pair : loaded->dataset) {
      check(!pair.source.empty() && !pair.target.empty());
      ascope::fuzz::checkUtf8(pair.source);
      ascope::fuzz::checkUtf8(pair.target);
    }
  } else {
    check(loaded.error().find("a.en") != std::string::npos ||
          loaded.error().find("a.it") != std::string::npos);
  }
  return 0;
}
