#include "engine/pretrained/format/safetensors_header.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <tuple>

#include "engine/core/json_limits.h"

namespace ascope {
namespace {

using Json = nlohmann::json;

constexpr const char* kMetadataKey = "__metadata__";
constexpr auto kMaxInt64 = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

struct DtypeSize {
  std::string_view name;
  std::size_t bytes;
};
constexpr DtypeSize kDtypeSizes[] = {{"BOOL", 1},    {"U8", 1},  {"I8", 1},  {"F8_E5M2", 1},
                                     {"F8_E4M3", 1}, {"I16", 2}, {"U16", 2}, {"F16", 2},
                                     {"BF16", 2},    {"I32", 4}, {"U32", 4}, {"F32", 4},
                                     {"F64", 8},     {"I64", 8}, {"U64", 8}};

/// Top level: tensor, "dtype"/"shape"/"data_offsets" inside; one more for slack. Deeper text can
/// only be garbage, and nesting is what would make nlohmann recurse (engine/core/json_limits.h).
constexpr std::size_t kMaxHeaderDepth = 4;

std::uint64_t readLittleEndian64(const char* bytes) {
  std::uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = (value << 8) | static_cast<unsigned char>(bytes[i]);
  return value;
}

std::string what(const std::string& key) {
  return key == kMetadataKey ? std::string("\"__metadata__\"") : "tensor '" + key + "'";
}

std::string rangeText(std::uint64_t begin, std::uint64_t end) {
  return "[" + std::to_string(begin) + ", " + std::to_string(end) + "]";
}

std::string shapeText(const std::vector<std::int64_t>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

/// The parser keeps only the last of two equal keys; the official reader refuses such a header
/// (two tensors claiming one name is the classic way to show one reader other weights than
/// another), so the keys are watched while parsing.
class DuplicateKeyWatch {
 public:
  bool operator()(int depth, Json::parse_event_t event, const Json& parsed) {
    if (event != Json::parse_event_t::key || duplicate_) return true;
    const auto& key = parsed.get_ref<const std::string&>();
    if (depth == 1) {
      member_ = key;
      inner_keys_.clear();
      if (!top_keys_.insert(key).second) duplicate_ = what(key) + " appears twice";
    } else if (depth == 2 && !inner_keys_.insert(key).second) {
      duplicate_ = what(member_) + ": \"" + key + "\" given twice";
    }
    return true;
  }
  const std::optional<std::string>& duplicate() const { return duplicate_; }

 private:
  std::set<std::string> top_keys_, inner_keys_;
  std::string member_;
  std::optional<std::string> duplicate_;
};

/// A value in a message: short, since a hostile header can hold a million-element "shape".
std::string quotedJson(const Json& value) {
  constexpr std::size_t kMaxShown = 40;
  // ASCII only, so that cutting it never splits a character.
  std::string text = value.dump(-1, ' ', true);
  if (text.size() > kMaxShown) text = text.substr(0, kMaxShown) + "...";
  return text;
}

/// A non-negative JSON integer. Parsed JSON stores those as unsigned, negative ones as signed,
/// anything with a fraction or exponent (and integers beyond 64 bits) as floating point.
Expected<std::uint64_t> unsignedInteger(const Json& value, const std::string& field) {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  if (value.is_number_integer()) return Error{field + " is negative: " + quotedJson(value)};
  return Error{field + " is not an integer: " + quotedJson(value)};
}

class EntryReader {
 public:
  EntryReader(const std::string& name, std::uint64_t data_bytes)
      : name_(name), data_bytes_(data_bytes) {}

  Expected<SafetensorsEntry> read(const std::string& key, const Json& value) const {
    const std::string where = name_ + ": " + what(key) + ": ";
    if (!value.is_object()) return Error{where + "entry is not a JSON object"};
    for (const char* field : {"dtype", "shape", "data_offsets"}) {
      if (!value.contains(field)) return Error{where + "no \"" + field + "\""};
    }
    SafetensorsEntry entry;
    entry.name = key;
    const Json& dtype = value["dtype"];
    if (!dtype.is_string()) return Error{where + "\"dtype\" is not a string: " + quotedJson(dtype)};
    entry.dtype = dtype.get<std::string>();
    entry.element_bytes = safetensorsDtypeBytes(entry.dtype);
    if (entry.element_bytes == 0) return Error{where + "unknown dtype " + quotedJson(dtype)};

    const Json& shape = value["shape"];
    if (!shape.is_array()) return Error{where + "\"shape\" is not an array: " + quotedJson(shape)};
    for (std::size_t i = 0; i < shape.size(); ++i) {
      auto dim = unsignedInteger(shape[i], "\"shape\" dimension " + std::to_string(i));
      if (!dim.ok()) return Error{where + dim.error()};
      if (*dim > kMaxInt64) {
        return Error{where + "\"shape\" dimension " + std::to_string(i) +
                     " is too large: " + std::to_string(*dim)};
      }
      entry.shape.push_back(static_cast<std::int64_t>(*dim));
    }

    const Json& offsets = value["data_offsets"];
    if (!offsets.is_array() || offsets.size() != 2) {
      return Error{where + "\"data_offsets\" is not a pair [begin, end]: " + quotedJson(offsets)};
    }
    auto begin = unsignedInteger(offsets[0], "\"data_offsets\" begin");
    if (!begin.ok()) return Error{where + begin.error()};
    auto end = unsignedInteger(offsets[1], "\"data_offsets\" end");
    if (!end.ok()) return Error{where + end.error()};
    entry.begin = *begin;
    entry.end = *end;
    const std::string range = "\"data_offsets\" " + rangeText(entry.begin, entry.end);
    if (entry.begin > entry.end) return Error{where + range + " begin after end"};
    if (entry.end > data_bytes_) {
      return Error{where + range + " end past the " + std::to_string(data_bytes_) +
                   "-byte data section"};
    }

    const std::optional<std::uint64_t> bytes = byteCount(entry);
    if (!bytes) {
      return Error{where + "\"shape\" " + shapeText(entry.shape) + " has too many elements"};
    }
    if (*bytes != entry.end - entry.begin) {
      return Error{where + "\"shape\" " + shapeText(entry.shape) + " of " + entry.dtype + " is " +
                   std::to_string(*bytes) + " bytes, " + range + " hold " +
                   std::to_string(entry.end - entry.begin)};
    }
    return entry;
  }

 private:
  /// Empty when the count overflows. Every dimension counts as at least 1 here, so that a shape
  /// with a zero in it still has strides LibTorch can compute without overflowing.
  static std::optional<std::uint64_t> byteCount(const SafetensorsEntry& entry) {
    std::uint64_t strided = 1, elements = 1;
    for (const std::int64_t dim : entry.shape) {
      const auto size = static_cast<std::uint64_t>(dim);
      if (__builtin_mul_overflow(strided, std::max<std::uint64_t>(size, 1), &strided) ||
          strided > kMaxInt64) {
        return std::nullopt;
      }
      elements *= size;  // cannot overflow: bounded by `strided`
    }
    std::uint64_t bytes = 0;
    if (__builtin_mul_overflow(elements, entry.element_bytes, &bytes)) return std::nullopt;
    return bytes;
  }

  const std::string& name_;
  std::uint64_t data_bytes_;
};

Expected<std::map<std::string, std::string>> readMetadata(const Json& value,
                                                          const std::string& name) {
  if (!value.is_object()) return Error{name + ": \"__metadata__\" is not an object"};
  std::map<std::string, std::string> metadata;
  for (const auto& [key, text] : value.items()) {
    if (!text.is_string()) {
      std::string message = name + ": \"__metadata__\" value of '";
      message.append(key).append("' is not a string: ").append(quotedJson(text));
      return Error{message};
    }
    metadata.emplace(key, text.get<std::string>());
  }
  return metadata;
}

/// The official reader's rule: sorted by their offsets, tensors follow each other without a gap
/// or an overlap from the first byte of the data section to its last.
Status checkTiling(std::vector<SafetensorsEntry>& entries, std::uint64_t data_bytes,
                   const std::string& name) {
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    return std::tie(a.begin, a.end, a.name) < std::tie(b.begin, b.end, b.name);
  });
  const auto unclaimed = [&](std::uint64_t from, std::uint64_t to, const std::string& where) {
    return Error{name + ": bytes [" + std::to_string(from) + ", " + std::to_string(to) +
                 ") of the data section belong to no tensor" + where};
  };
  std::uint64_t covered = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const SafetensorsEntry& entry = entries[i];
    if (entry.begin < covered) {
      const SafetensorsEntry& before = entries[i - 1];
      return Error{name + ": tensors '" + before.name + "' " + rangeText(before.begin, before.end) +
                   " and '" + entry.name + "' " + rangeText(entry.begin, entry.end) +
                   " overlap in the data section"};
    }
    if (entry.begin > covered) {
      return unclaimed(covered, entry.begin,
                       i == 0
                           ? " (before '" + entry.name + "')"
                           : " (between '" + entries[i - 1].name + "' and '" + entry.name + "')");
    }
    covered = entry.end;
  }
  if (covered < data_bytes) {
    return unclaimed(covered, data_bytes,
                     entries.empty() ? "" : " (after '" + entries.back().name + "')");
  }
  return {};
}

}  // namespace

std::int64_t SafetensorsEntry::elementCount() const {
  std::int64_t count = 1;
  for (const std::int64_t dim : shape) count *= dim;
  return count;
}

std::size_t safetensorsDtypeBytes(std::string_view dtype) {
  for (const DtypeSize& known : kDtypeSizes) {
    if (known.name == dtype) return known.bytes;
  }
  return 0;
}

Expected<SafetensorsHeader> parseSafetensorsHeader(std::string_view file_start,
                                                   std::uint64_t file_size,
                                                   const std::string& name) {
  if (file_size == 0) return Error{name + ": file is empty, not a safetensors file"};
  if (file_size < kSafetensorsLengthBytes) {
    return Error{name + ": file is " + std::to_string(file_size) +
                 " bytes, too short for a safetensors header length (8 bytes)"};
  }
  if (file_start.size() < kSafetensorsLengthBytes) {
    return Error{name + ": only " + std::to_string(file_start.size()) +
                 " bytes of the file given, the header length needs 8"};
  }
  const std::uint64_t header_bytes = readLittleEndian64(file_start.data());
  if (header_bytes > kMaxSafetensorsHeaderBytes) {
    return Error{name + ": header length " + std::to_string(header_bytes) +
                 " is over the limit of " + std::to_string(kMaxSafetensorsHeaderBytes) + " bytes"};
  }
  if (header_bytes > file_size - kSafetensorsLengthBytes) {
    return Error{name + ": header length " + std::to_string(header_bytes) +
                 " runs past the end of the file (" + std::to_string(file_size) + " bytes)"};
  }
  SafetensorsHeader header;
  header.data_start = kSafetensorsLengthBytes + header_bytes;
  header.data_bytes = file_size - header.data_start;
  if (file_start.size() < header.data_start) {
    return Error{name + ": only " + std::to_string(file_start.size()) +
                 " bytes of the file given, the header needs " + std::to_string(header.data_start)};
  }
  const std::string_view text = file_start.substr(kSafetensorsLengthBytes, header_bytes);
  // The format requires the '{' (and so an object); it also rules out a length pointing at
  // binary data that merely happens to parse, such as a lone number.
  if (text.empty() || text.front() != '{') {
    return Error{name + ": header is not a JSON object (it does not start with '{')"};
  }
  if (Status s = checkJsonLimits(text, name, {kMaxSafetensorsHeaderBytes, kMaxHeaderDepth});
      !s.ok()) {
    return Error{s.error()};
  }
  // nlohmann takes a NUL byte for the end of its input and would accept "{}\0<anything>"; JSON
  // text has no raw NUL anywhere, and the format pads with spaces only.
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
    return Error{name + ": header is not valid JSON: NUL byte at byte " + std::to_string(nul + 1)};
  }
  DuplicateKeyWatch watch;
  Json json;
  try {
    json = Json::parse(text, std::ref(watch));
  } catch (const Json::exception& e) {
    return Error{name + ": header is not valid JSON: " + e.what()};
  }
  if (watch.duplicate()) return Error{name + ": " + *watch.duplicate()};

  const EntryReader reader(name, header.data_bytes);
  for (const auto& [key, value] : json.items()) {
    if (key == kMetadataKey) {
      auto metadata = readMetadata(value, name);
      if (!metadata.ok()) return Error{metadata.error()};
      header.metadata = std::move(*metadata);
      continue;
    }
    auto entry = reader.read(key, value);
    if (!entry.ok()) return Error{entry.error()};
    header.entries.push_back(std::move(*entry));
  }
  if (Status s = checkTiling(header.entries, header.data_bytes, name); !s.ok()) {
    return Error{s.error()};
  }
  return header;
}

Expected<std::string> serializeSafetensorsHeader(
    const std::vector<SafetensorsEntry>& entries,
    const std::map<std::string, std::string>& metadata) {
  // Insertion order, as the official writer puts the keys, rather than nlohmann's sorted maps.
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  if (!metadata.empty()) json[kMetadataKey] = metadata;
  for (const SafetensorsEntry& entry : entries) {
    nlohmann::ordered_json description = nlohmann::ordered_json::object();
    description["dtype"] = entry.dtype;
    description["shape"] = nlohmann::ordered_json::array();
    for (const std::int64_t dim : entry.shape) description["shape"].push_back(dim);
    description["data_offsets"] = {entry.begin, entry.end};
    json[entry.name] = std::move(description);
  }
  std::string text;
  try {
    text = json.dump();
  } catch (const nlohmann::ordered_json::exception& e) {
    return Error{std::string("safetensors header: ") + e.what()};
  }
  text.append((8 - text.size() % 8) % 8, ' ');
  std::string bytes(kSafetensorsLengthBytes, '\0');
  for (std::size_t i = 0; i < kSafetensorsLengthBytes; ++i) {
    bytes[i] = static_cast<char>((static_cast<std::uint64_t>(text.size()) >> (8 * i)) & 0xffu);
  }
  return bytes + text;
}

}  // namespace ascope
