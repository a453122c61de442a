#include "engine/data/attention_snapshot_codec.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "engine/data/msgpack_limits.h"
#include "engine/data/regular_file.h"

namespace ascope {

std::string encodeAttentionSnapshot(const AttentionSnapshot& s) {
  nlohmann::json groups = nlohmann::json::array();
  for (const AttentionGroup& g : s.groups) {
    nlohmann::json maps = nlohmann::json::array();
    for (const AttentionMap& m : g.maps)
      maps.push_back({{"rows", m.rows}, {"cols", m.cols}, {"values", m.values}});
    groups.push_back({{"name", g.name},
                      {"layers", g.layers},
                      {"heads", g.heads},
                      {"row_labels", g.row_labels},
                      {"col_labels", g.col_labels},
                      {"maps", maps}});
  }
  const nlohmann::json j = {{"version", 1},
                            {"step", s.step},
                            {"task", s.task},
                            {"sample_index", s.sample_index},
                            {"groups", groups},
                            {"image_width", s.image.width},
                            {"image_height", s.image.height},
                            {"image", nlohmann::json::binary(s.image.pixels)},
                            {"patch_size", s.patch_size},
                            {"grid_rows", s.grid_rows},
                            {"grid_cols", s.grid_cols}};
  const std::vector<std::uint8_t> bytes = nlohmann::json::to_msgpack(j);
  return std::string(bytes.begin(), bytes.end());
}

Expected<AttentionSnapshot> decodeAttentionSnapshot(const std::string& bytes,
                                                    const std::string& name) {
  // nlohmann's from_msgpack recurses once per nesting level and trusts length fields: 300 KB of
  // nested arrays overflow the pool thread's stack, and a 4 GiB length allocates before any check
  // below could run. The iterative scan refuses both first.
  if (Status s = checkMsgpackLimits(bytes, name); !s.ok()) return Error{s.error()};
  // What the tasks write is far inside these; a value outside them is a damaged or crafted file,
  // refused before sizes are multiplied or labels reach the GUI's layout.
  constexpr std::int64_t kMaxSide = 4096;  // rows, columns, labels, image sides
  constexpr std::int64_t kMaxLayersOrHeads = 1024;
  constexpr std::size_t kMaxGroups = 64;
  constexpr std::size_t kMaxLabelBytes = 1024;
  struct Refused {
    std::string message;
  };
  const auto integer = [&](const nlohmann::json& object, const char* key, std::int64_t min,
                           std::int64_t max, const std::string& where) -> std::int64_t {
    const nlohmann::json& v = object.at(key);
    if (!v.is_number_integer()) throw Refused{name + ": " + where + key + " is not an integer"};
    const bool huge = v.is_number_unsigned() && v.get<std::uint64_t>() > INT64_MAX;
    const std::int64_t value = huge ? INT64_MAX : v.get<std::int64_t>();
    if (value < min || value > max) {
      throw Refused{name + ": " + where + key + " " + (huge ? v.dump() : std::to_string(value)) +
                    " is outside " + std::to_string(min) + ".." + std::to_string(max)};
    }
    return value;
  };
  const auto optionalInteger = [&](const nlohmann::json& object, const char* key,
                                   std::int64_t max) -> int {
    return object.contains(key) ? static_cast<int>(integer(object, key, 0, max, "")) : 0;
  };
  const auto text = [&](const nlohmann::json& v, const std::string& what) -> std::string {
    if (!v.is_string()) throw Refused{name + ": " + what + " is not a string"};
    if (v.get_ref<const std::string&>().size() > kMaxLabelBytes) {
      throw Refused{name + ": " + what + " is longer than " + std::to_string(kMaxLabelBytes) +
                    " bytes"};
    }
    return v.get<std::string>();
  };
  const auto labels = [&](const nlohmann::json& group, const char* key, const std::string& where) {
    const nlohmann::json& v = group.at(key);
    if (!v.is_array()) throw Refused{name + ": " + where + key + " is not an array"};
    if (v.size() > static_cast<std::size_t>(kMaxSide)) {
      throw Refused{name + ": " + where + key + " has " + std::to_string(v.size()) +
                    " labels, over " + std::to_string(kMaxSide)};
    }
    std::vector<std::string> out;
    out.reserve(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
      out.push_back(text(v[i], where + key + "[" + std::to_string(i) + "]"));
    }
    return out;
  };
  try {
    const nlohmann::json j = nlohmann::json::from_msgpack(bytes);
    if (!j.is_object()) return Error{name + ": not an attention snapshot (not a map)"};
    AttentionSnapshot s;
    s.step = integer(j, "step", 0, INT64_MAX, "");
    s.task = text(j.at("task"), "task");
    s.sample_index = optionalInteger(j, "sample_index", INT32_MAX);
    const nlohmann::json& groups = j.at("groups");
    if (!groups.is_array() || groups.size() > kMaxGroups) {
      return Error{name + ": \"groups\" is not an array of at most " + std::to_string(kMaxGroups) +
                   " groups"};
    }
    for (const auto& g : groups) {
      if (!g.is_object()) return Error{name + ": a group is not a map"};
      AttentionGroup group;
      group.name = text(g.at("name"), "group name");
      const std::string where = "group \"" + group.name + "\": ";
      group.layers = static_cast<int>(integer(g, "layers", 1, kMaxLayersOrHeads, where));
      group.heads = static_cast<int>(integer(g, "heads", 1, kMaxLayersOrHeads, where));
      group.row_labels = labels(g, "row_labels", where);
      group.col_labels = labels(g, "col_labels", where);
      const nlohmann::json& maps = g.at("maps");
      const auto expected_maps = static_cast<std::size_t>(group.layers) * group.heads;
      if (!maps.is_array() || maps.size() != expected_maps) {
        return Error{name + ": group " + group.name + " has " +
                     (maps.is_array() ? std::to_string(maps.size()) : std::string("no")) +
                     " maps for " + std::to_string(group.layers) + " layers × " +
                     std::to_string(group.heads) + " heads"};
      }
      group.maps.reserve(expected_maps);
      for (std::size_t index = 0; index < maps.size(); ++index) {
        const nlohmann::json& m = maps[index];
        if (!m.is_object()) return Error{name + ": " + where + "a map is not a map"};
        const std::string at = where + "map " + std::to_string(index) + ": ";
        const auto rows = static_cast<int>(integer(m, "rows", 1, kMaxSide, at));
        const auto cols = static_cast<int>(integer(m, "cols", 1, kMaxSide, at));
        const nlohmann::json& values = m.at("values");
        const std::size_t count = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
        if (!values.is_array() || values.size() != count) {
          return Error{name + ": attention map of " + group.name + " has " +
                       (values.is_array() ? std::to_string(values.size()) : std::string("no")) +
                       " values for " + std::to_string(rows) + "×" + std::to_string(cols)};
        }
        group.maps.push_back(AttentionMap{rows, cols, values.get<std::vector<float>>()});
      }
      s.groups.push_back(std::move(group));
    }
    s.image.width = optionalInteger(j, "image_width", kMaxSide);
    s.image.height = optionalInteger(j, "image_height", kMaxSide);
    if (j.contains("image") && j.at("image").is_binary())
      s.image.pixels = j.at("image").get_binary();
    const std::size_t plane = static_cast<std::size_t>(s.image.width) * s.image.height;
    const std::size_t pixels = s.image.pixels.size();
    if (pixels != 0 && pixels != plane && pixels != 3 * plane) {
      return Error{name + ": image of " + std::to_string(s.image.width) + "×" +
                   std::to_string(s.image.height) + " has " + std::to_string(pixels) +
                   " bytes (expected " + std::to_string(plane) + " or " +
                   std::to_string(3 * plane) + ")"};
    }
    s.patch_size = optionalInteger(j, "patch_size", kMaxSide);
    s.grid_rows = optionalInteger(j, "grid_rows", kMaxSide);
    s.grid_cols = optionalInteger(j, "grid_cols", kMaxSide);
    return s;
  } catch (const Refused& refused) {
    return Error{refused.message};
  } catch (const std::exception& e) {
    return Error{name + ": not an attention snapshot (" + e.what() + ")"};
  }
}

Expected<AttentionSnapshot> readAttentionSnapshot(const std::string& path) {
  // A FIFO named step_*.msgpack would block the pool thread in open() for good, and a file
  // larger than any snapshot would be read whole before the checks above.
  Expected<std::string> bytes = readRegularFile(path, kMaxMsgpackFileBytes);
  if (!bytes.ok()) return Error{bytes.error()};
  return decodeAttentionSnapshot(*bytes, path);
}

}  // namespace ascope
