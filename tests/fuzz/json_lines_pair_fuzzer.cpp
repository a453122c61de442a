// JsonLinesPairReader::parse on arbitrary bytes, for the default en→it and for a pair of languages
// taken from the input itself so that any key can be the one asked for.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/datasets/json_lines_pair_reader.h"
#include "fuzz_check.h"

namespace {

void parseAndCheck(std::string_view bytes, const std::string& source, const std::string& target) {
  using ascope::fuzz::check;
  auto loaded = ascope::JsonLinesPairReader::parse(bytes, "fuzz.jsonl", source, target);
  if (!loaded.ok()) {
    check(loaded.error().rfind("fuzz.jsonl: ", 0) == 0);
    return;
  }
  check(!loaded->dataset.empty());
  for (const auto& pair : loaded->dataset) {
    check(!pair.source.empty() && !pair.target.empty());
    ascope::fuzz::checkUtf8(pair.source);
    ascope::fuzz::checkUtf8(pair.target);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  parseAndCheck(bytes, "en", "it");
  if (size >= 2) parseAndCheck(bytes.substr(2), std::string(1, bytes[0]), std::string(1, bytes[1]));
  return 0;
}
