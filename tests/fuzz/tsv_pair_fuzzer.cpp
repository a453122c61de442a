// TsvPairReader::parse on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/datasets/tsv_pair_reader.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ascope::fuzz::check;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto loaded = ascope::TsvPairReader::parse(bytes, "fuzz.tsv");
  if (loaded.ok()) {
    check(!loaded->dataset.empty());
    for (const auto& pair : loaded->dataset) {
      check(!pair.source.empty() && !pair.target.empty());
      check(pair.source.find('\t') == std::string::npos &&
            pair.target.find('\t') == std::string::npos);
      ascope::fuzz::checkUtf8(pair.source);
      ascope::fuzz::checkUtf8(pair.target);
    }
  } else {
    check(loaded.error().rfind("fuzz.tsv: ", 0) == 0);
  }
  return 0;
}
