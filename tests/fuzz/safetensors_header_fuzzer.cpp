// parseSafetensorsHeader on arbitrary bytes taken as a whole file, as SafetensorsFile::open
// parses a mapped file. What it accepts must keep every tensor inside the data section, tile the
// section exactly and have consistent sizes; written out again by serializeSafetensorsHeader
// with the same data, it must parse to the same header.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/pretrained/format/safetensors_header.h"
#include "fuzz_check.h"

namespace {

using ascope::SafetensorsEntry;
using ascope::SafetensorsHeader;
using ascope::fuzz::check;

bool sameEntry(const SafetensorsEntry& a, const SafetensorsEntry& b) {
  return a.name == b.name && a.dtype == b.dtype && a.element_bytes == b.element_bytes &&
         a.shape == b.shape && a.begin == b.begin && a.end == b.end;
}

void checkInvariants(const SafetensorsHeader& header, std::size_t size) {
  check(header.data_start >= ascope::kSafetensorsLengthBytes);
  check(header.data_start + header.data_bytes == size);
  std::uint64_t covered = 0;
  for (const SafetensorsEntry& entry : header.entries) {
    check(entry.begin == covered && entry.begin <= entry.end);
    check(entry.end <= header.data_bytes);
    check(entry.element_bytes == ascope::safetensorsDtypeBytes(entry.dtype));
    for (const std::int64_t dim : entry.shape) check(dim >= 0);
    check(static_cast<std::uint64_t>(entry.elementCount()) * entry.element_bytes ==
          entry.end - entry.begin);
    covered = entry.end;
  }
  check(covered == header.data_bytes);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view file(reinterpret_cast<const char*>(data), size);
  const auto header = ascope::parseSafetensorsHeader(file, size, "fuzz.safetensors");
  if (!header.ok()) {
    check(header.error().rfind("fuzz.safetensors: ", 0) == 0);
    return 0;
  }
  checkInvariants(*header, size);

  const auto rewritten = ascope::serializeSafetensorsHeader(header->entries, header->metadata);
  check(rewritten.ok());  // names and metadata came from valid JSON, hence valid UTF-8
  const std::string again = *rewritten + std::string(file.substr(header->data_start));
  const auto reparsed = ascope::parseSafetensorsHeader(again, again.size(), "again");
  check(reparsed.ok());
  check(reparsed->data_bytes == header->data_bytes);
  check(reparsed->metadata == header->metadata);
  check(reparsed->entries.size() == header->entries.size());
  for (std::size_t i = 0; i < header->entries.size(); ++i) {
    check(sameEntry(reparsed->entries[i], header->entries[i]));
  }
  return 0;
}
