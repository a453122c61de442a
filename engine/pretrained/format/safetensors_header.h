#pragma once
// The header of a safetensors file, Hugging Face's format for model weights: an 8-byte
// little-endian length N, N bytes of JSON giving each tensor's dtype, shape and byte range, then
// the data section. Pretrained weights come from strangers, so every number in the header is
// checked before a reader touches the data: a hostile or cut-off file is an error that names the
// file and the field, never a read outside the file. The checks follow the official library's:
// the tensors' byte ranges must tile the data section exactly (no overlap, no gap, no tail).
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// The length of the JSON header, little-endian, opens the file.
inline constexpr std::size_t kSafetensorsLengthBytes = 8;
/// The official library refuses larger headers too; the largest real ones are a few MB.
inline constexpr std::uint64_t kMaxSafetensorsHeaderBytes = 100'000'000;

struct SafetensorsEntry {
  std::string name;
  std::string dtype;  ///< as the file spells it: "F32", "BF16", "I64", …
  std::size_t element_bytes = 0;
  std::vector<std::int64_t> shape;  ///< empty for a scalar
  std::uint64_t begin = 0;          ///< the tensor's bytes: [begin, end) of the data section
  std::uint64_t end = 0;

  std::int64_t elementCount() const;
};

struct SafetensorsHeader {
  std::uint64_t data_start = 0;  ///< where the data section starts in the file: 8 + N
  std::uint64_t data_bytes = 0;
  std::vector<SafetensorsEntry> entries;        ///< in the order of their bytes in the file
  std::map<std::string, std::string> metadata;  ///< "__metadata__", empty when absent
};

/// Bytes per element of a dtype the format defines ("F32" → 4), 0 for any other name.
std::size_t safetensorsDtypeBytes(std::string_view dtype);

/// Parses and checks the header of a file of `file_size` bytes whose first bytes (at least the
/// length and the header; the whole file will do) are `file_start`. Errors start with `name`:
/// "model.safetensors: tensor 'w': \"shape\" [2, 3] of F32 is 24 bytes, \"data_offsets\" [0, 20]
/// hold 20". Dtypes are only checked to exist: which ones load is the reader's business.
Expected<SafetensorsHeader> parseSafetensorsHeader(std::string_view file_start,
                                                   std::uint64_t file_size,
                                                   const std::string& name);

/// The length and JSON header for `entries` (offsets as given) and `metadata`, laid out as the
/// official writer does: "__metadata__" first when there is any, compact JSON, padded with spaces
/// to a multiple of 8 bytes so that the data section starts aligned. Fails only for names or
/// metadata that are not valid UTF-8.
Expected<std::string> serializeSafetensorsHeader(
    const std::vector<SafetensorsEntry>& entries,
    const std::map<std::string, std::string>& metadata);

}  // namespace ascope
