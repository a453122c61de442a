#include "engine/runfolder/snapshots/attention_snapshot_codec.h"

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "engine/core/half_float.h"
#include "engine/core/msgpack_limits.h"
#include "engine/core/regular_file.h"

namespace ascope {
namespace {

/// Longest token label or class name a snapshot may carry.
constexpr std::size_t kMaxLabelBytes = 1024;
/// More probe samples than the trainer ever takes (TrainingConfig allows 16).
constexpr std::size_t kMaxProbeSetSamples = 64;

/// One sample's snapshot as a map; `halves`: weights as binary16 bytes ("values_f16").
nlohmann::json snapshotObject(const AttentionSnapshot& s, bool halves) {
  nlohmann::json groups = nlohmann::json::array();
  for (const AttentionGroup& g : s.groups) {
    nlohmann::json maps = nlohmann::json::array();
    for (const AttentionMap& m : g.maps) {
      if (halves) {
        maps.push_back({{"rows", m.rows},
                        {"cols", m.cols},
                        {"values_f16", nlohmann::json::binary(packHalves(m.values))}});
      } else {
        maps.push_back({{"rows", m.rows}, {"cols", m.cols}, {"values", m.values}});
      }
    }
    groups.push_back({{"name", g.name},
                      {"layers", g.layers},
                      {"heads", g.heads},
                      {"row_labels", g.row_labels},
                      {"col_labels", g.col_labels},
                      {"causal", g.causal},
                      {"row_predictions", g.row_predictions},
                      {"maps", maps}});
  }
  nlohmann::json decoding = nlohmann::json::array();
  for (const DecodingStep& step : s.decoding) {
    nlohmann::json top = nlohmann::json::array();
    for (const auto& [token, probability] : step.top)
      top.push_back({{"token", token}, {"probability", probability}});
    decoding.push_back({{"top", top}});
  }
  nlohmann::json j = {{"version", 1},
                      {"step", s.step},
                      {"task", s.task},
                      {"sample_index", s.sample_index},
                      {"groups", groups},
                      {"image_width", s.image.width},
                      {"image_height", s.image.height},
                      {"image", nlohmann::json::binary(s.image.pixels)},
                      {"patch_size", s.patch_size},
                      {"grid_rows", s.grid_rows},
                      {"grid_cols", s.grid_cols},
                      {"decoding", decoding}};
  if (!s.decoding.empty()) j["decoder_fed"] = s.decoder_fed_reference ? "reference" : "prediction";
  if (s.sample) {
    const SamplePrediction& p = *s.sample;
    j["sample"] = {{"step", p.step},
                   {"task", p.task},
                   {"sample_index", p.sample_index},
                   {"image_width", p.image.width},
                   {"image_height", p.image.height},
                   {"image", nlohmann::json::binary(p.image.pixels)},
                   {"text", p.text},
                   {"true_label", p.true_label},
                   {"predicted_label", p.predicted_label},
                   {"probability", p.probability},
                   {"correct", p.correct}};
  }
  if (s.positional_encoding) {
    const PositionalEncodingSnapshot& pe = *s.positional_encoding;
    j["positional_encoding"] = {{"step", pe.step},           {"kind", pe.kind},
                                {"positions", pe.positions}, {"dims", pe.dims},
                                {"values", pe.values},       {"grid_rows", pe.grid_rows},
                                {"grid_cols", pe.grid_cols}, {"has_cls", pe.has_cls}};
  }
  return j;
}

std::string toBytes(const nlohmann::json& j) {
  const std::vector<std::uint8_t> bytes = nlohmann::json::to_msgpack(j);
  return std::string(bytes.begin(), bytes.end());
}

/// One sample's snapshot from its map; errors start with `name`.
Expected<AttentionSnapshot> decodeSnapshotObject(const nlohmann::json& j, const std::string& name) {
  // What the tasks write is far inside these; a value outside them is a damaged or crafted file,
  // refused before sizes are multiplied or labels reach the GUI's layout.
  constexpr std::int64_t kMaxSide = 4096;  // rows, columns, labels, image sides
  constexpr std::int64_t kMaxLayersOrHeads = 1024;
  constexpr std::size_t kMaxGroups = 64;
  constexpr std::size_t kMaxCandidates = 1024;                      // per decoding step
  constexpr std::size_t kMaxSampleTextBytes = 1 << 20;              // a review is a few KiB
  constexpr std::int64_t kMaxPositions = 100000, kMaxDims = 16384;  // the model configs' bounds
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
  const auto text = [&](const nlohmann::json& v, const std::string& what,
                        std::size_t max_bytes = kMaxLabelBytes) -> std::string {
    if (!v.is_string()) throw Refused{name + ": " + what + " is not a string"};
    if (v.get_ref<const std::string&>().size() > max_bytes) {
      throw Refused{name + ": " + what + " is longer than " + std::to_string(max_bytes) + " bytes"};
    }
    return v.get<std::string>();
  };
  const auto optionalText = [&](const nlohmann::json& object, const char* key,
                                const std::string& where, std::size_t max_bytes) -> std::string {
    return object.contains(key) ? text(object.at(key), where + key, max_bytes) : std::string();
  };
  const auto flag = [&](const nlohmann::json& object, const char* key,
                        const std::string& where) -> bool {
    if (!object.contains(key)) return false;
    const nlohmann::json& v = object.at(key);
    if (!v.is_boolean()) throw Refused{name + ": " + where + key + " is not a boolean"};
    return v.get<bool>();
  };
  const auto probability = [&](const nlohmann::json& v, const std::string& what) -> double {
    if (!v.is_number()) throw Refused{name + ": " + what + " is not a number"};
    const double p = v.get<double>();
    // NaN passes: a model whose loss went non-finite is still probed and its steps stay readable.
    if (!std::isnan(p) && !(p >= 0.0 && p <= 1.0)) {
      throw Refused{name + ": " + what + " " + v.dump() + " is outside 0..1"};
    }
    return p;
  };
  const auto submap = [&](const nlohmann::json& object, const char* key) -> const nlohmann::json& {
    const nlohmann::json& v = object.at(key);
    if (!v.is_object()) throw Refused{name + ": " + key + " is not a map"};
    return v;
  };
  // Channel-planar RGB, or one plane: any other byte count would be read past its end.
  const auto image = [&](const nlohmann::json& object, const std::string& where) -> ImageBuffer {
    ImageBuffer out;
    const auto side = [&](const char* key) {
      return object.contains(key) ? static_cast<int>(integer(object, key, 0, kMaxSide, where)) : 0;
    };
    out.width = side("image_width");
    out.height = side("image_height");
    if (object.contains("image") && object.at("image").is_binary())
      out.pixels = object.at("image").get_binary();
    const std::size_t plane = static_cast<std::size_t>(out.width) * out.height;
    const std::size_t pixels = out.pixels.size();
    if (pixels != 0 && pixels != plane && pixels != 3 * plane) {
      throw Refused{name + ": " + where + "image of " + std::to_string(out.width) + "×" +
                    std::to_string(out.height) + " has " + std::to_string(pixels) +
                    " bytes (expected " + std::to_string(plane) + " or " +
                    std::to_string(3 * plane) + ")"};
    }
    return out;
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
      group.causal = flag(g, "causal", where);
      if (g.contains("row_predictions")) {
        group.row_predictions = labels(g, "row_predictions", where);
        if (!group.row_predictions.empty() &&
            group.row_predictions.size() != group.row_labels.size()) {
          return Error{name + ": " + where + "row_predictions has " +
                       std::to_string(group.row_predictions.size()) + " labels for " +
                       std::to_string(group.row_labels.size()) + " rows"};
        }
      }
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
        const std::size_t count = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
        if (m.contains("values_f16")) {
          const nlohmann::json& halves = m.at("values_f16");
          if (!halves.is_binary() || halves.get_binary().size() != 2 * count) {
            return Error{name + ": attention map of " + group.name + " has " +
                         (halves.is_binary() ? std::to_string(halves.get_binary().size())
                                             : std::string("no")) +
                         " bytes of float16 values for " + std::to_string(rows) + "×" +
                         std::to_string(cols)};
          }
          group.maps.push_back(AttentionMap{rows, cols, unpackHalves(halves.get_binary())});
          continue;
        }
        const nlohmann::json& values = m.at("values");
        if (!values.is_array() || values.size() != count) {
          return Error{name + ": attention map of " + group.name + " has " +
                       (values.is_array() ? std::to_string(values.size()) : std::string("no")) +
                       " values for " + std::to_string(rows) + "×" + std::to_string(cols)};
        }
        group.maps.push_back(AttentionMap{rows, cols, values.get<std::vector<float>>()});
      }
      s.groups.push_back(std::move(group));
    }
    s.image = image(j, "");
    s.patch_size = optionalInteger(j, "patch_size", kMaxSide);
    s.grid_rows = optionalInteger(j, "grid_rows", kMaxSide);
    s.grid_cols = optionalInteger(j, "grid_cols", kMaxSide);
    // The keys below came later: files written before them simply lack them.
    if (j.contains("decoding")) {
      const nlohmann::json& steps = j.at("decoding");
      if (!steps.is_array() || steps.size() > static_cast<std::size_t>(kMaxSide)) {
        return Error{name + ": decoding is not an array of at most " + std::to_string(kMaxSide) +
                     " steps"};
      }
      s.decoding.reserve(steps.size());
      for (std::size_t i = 0; i < steps.size(); ++i) {
        const std::string at = "decoding[" + std::to_string(i) + "]";
        const nlohmann::json& step = steps[i];
        if (!step.is_object()) return Error{name + ": " + at + " is not a map"};
        const nlohmann::json& top = step.at("top");
        if (!top.is_array() || top.size() > kMaxCandidates) {
          return Error{name + ": " + at + ".top is not an array of at most " +
                       std::to_string(kMaxCandidates) + " candidates"};
        }
        DecodingStep decoded;
        decoded.top.reserve(top.size());
        for (std::size_t k = 0; k < top.size(); ++k) {
          const std::string candidate = at + ".top[" + std::to_string(k) + "]";
          if (!top[k].is_object()) return Error{name + ": " + candidate + " is not a map"};
          decoded.top.emplace_back(
              text(top[k].at("token"), candidate + ".token"),
              probability(top[k].at("probability"), candidate + ".probability"));
        }
        s.decoding.push_back(std::move(decoded));
      }
      // Step i fed row i of the decoder groups: a different count pairs steps with wrong rows.
      for (const AttentionGroup& group : s.groups) {
        if (!s.decoding.empty() && !group.row_predictions.empty() &&
            group.row_predictions.size() != s.decoding.size()) {
          return Error{name + ": decoding has " + std::to_string(s.decoding.size()) +
                       " steps for " + std::to_string(group.row_predictions.size()) +
                       " rows of group \"" + group.name + "\""};
        }
      }
    }
    if (j.contains("decoder_fed")) {
      const nlohmann::json& fed = j.at("decoder_fed");
      if (!fed.is_string() || (fed != "reference" && fed != "prediction")) {
        return Error{name + ": decoder_fed is neither \"reference\" nor \"prediction\""};
      }
      s.decoder_fed_reference = fed == "reference";
    }
    if (j.contains("sample")) {
      const nlohmann::json& p = submap(j, "sample");
      const std::string where = "sample: ";
      SamplePrediction sample;
      sample.step = integer(p, "step", 0, INT64_MAX, where);
      sample.task = text(p.at("task"), where + "task");
      if (p.contains("sample_index")) {
        sample.sample_index = static_cast<int>(integer(p, "sample_index", 0, INT32_MAX, where));
      }
      sample.image = image(p, where);
      sample.text = optionalText(p, "text", where, kMaxSampleTextBytes);
      sample.true_label = optionalText(p, "true_label", where, kMaxSampleTextBytes);
      sample.predicted_label = optionalText(p, "predicted_label", where, kMaxSampleTextBytes);
      if (p.contains("probability")) {
        sample.probability = probability(p.at("probability"), where + "probability");
      }
      sample.correct = flag(p, "correct", where);
      s.sample = std::move(sample);
    }
    if (j.contains("positional_encoding")) {
      const nlohmann::json& e = submap(j, "positional_encoding");
      const std::string where = "positional_encoding: ";
      PositionalEncodingSnapshot pe;
      pe.step = integer(e, "step", 0, INT64_MAX, where);
      pe.kind = optionalText(e, "kind", where, kMaxLabelBytes);
      pe.positions = static_cast<int>(integer(e, "positions", 0, kMaxPositions, where));
      pe.dims = static_cast<int>(integer(e, "dims", 0, kMaxDims, where));
      const nlohmann::json& values = e.at("values");
      const std::size_t count = static_cast<std::size_t>(pe.positions) * pe.dims;
      if (!values.is_array() || values.size() != count) {
        return Error{name + ": " + where + "values has " +
                     (values.is_array() ? std::to_string(values.size()) : std::string("no")) +
                     " values for " + std::to_string(pe.positions) + " positions × " +
                     std::to_string(pe.dims) + " dims"};
      }
      pe.values = values.get<std::vector<float>>();
      if (e.contains("grid_rows")) {
        pe.grid_rows = static_cast<int>(integer(e, "grid_rows", 0, kMaxSide, where));
      }
      if (e.contains("grid_cols")) {
        pe.grid_cols = static_cast<int>(integer(e, "grid_cols", 0, kMaxSide, where));
      }
      pe.has_cls = flag(e, "has_cls", where);
      // A patch grid (after the CLS row) larger than the positions would be drawn past the end.
      const std::int64_t grid = std::int64_t{pe.grid_rows} * pe.grid_cols + (pe.has_cls ? 1 : 0);
      if ((pe.grid_rows > 0 || pe.grid_cols > 0 || pe.has_cls) && grid > pe.positions) {
        return Error{name + ": " + where + "a grid of " + std::to_string(pe.grid_rows) + "×" +
                     std::to_string(pe.grid_cols) + (pe.has_cls ? " after CLS" : "") +
                     " does not fit " + std::to_string(pe.positions) + " positions"};
      }
      s.positional_encoding = std::move(pe);
    }
    return s;
  } catch (const Refused& refused) {
    return Error{refused.message};
  } catch (const std::exception& e) {
    return Error{name + ": not an attention snapshot (" + e.what() + ")"};
  }
}

}  // namespace

std::string encodeAttentionSnapshot(const AttentionSnapshot& snapshot) {
  return toBytes(snapshotObject(snapshot, false));
}

std::string encodeProbeSet(const ProbeSet& probes) {
  nlohmann::json samples = nlohmann::json::array();
  for (const AttentionSnapshot& s : probes.samples) samples.push_back(snapshotObject(s, true));
  return toBytes({{"version", 2}, {"step", probes.step}, {"samples", samples}});
}

namespace {

/// Checked before nlohmann parses: its from_msgpack recurses once per nesting level and trusts
/// length fields (300 KB of nested arrays overflow the pool thread's stack, and a 4 GiB length
/// allocates before any check could run); the iterative scan refuses both first.
Expected<nlohmann::json> parseMsgpack(const std::string& bytes, const std::string& name) {
  if (Status s = checkMsgpackLimits(bytes, name); !s.ok()) return Error{s.error()};
  try {
    return nlohmann::json::from_msgpack(bytes);
  } catch (const std::exception& e) {
    return Error{name + ": not an attention snapshot (" + e.what() + ")"};
  }
}

}  // namespace

Expected<AttentionSnapshot> decodeAttentionSnapshot(const std::string& bytes,
                                                    const std::string& name) {
  Expected<nlohmann::json> j = parseMsgpack(bytes, name);
  if (!j.ok()) return Error{j.error()};
  return decodeSnapshotObject(*j, name);
}

Expected<ProbeSet> decodeProbeSet(const std::string& bytes, const std::string& name) {
  Expected<nlohmann::json> j = parseMsgpack(bytes, name);
  if (!j.ok()) return Error{j.error()};
  ProbeSet probes;
  if (j->is_object() && j->contains("samples")) {
    const nlohmann::json& samples = j->at("samples");
    if (!samples.is_array() || samples.empty() || samples.size() > kMaxProbeSetSamples) {
      return Error{name + ": \"samples\" is not an array of 1 to " +
                   std::to_string(kMaxProbeSetSamples) + " snapshots"};
    }
    for (std::size_t i = 0; i < samples.size(); ++i) {
      Expected<AttentionSnapshot> s =
          decodeSnapshotObject(samples[i], name + " (sample " + std::to_string(i) + ")");
      if (!s.ok()) return Error{s.error()};
      probes.samples.push_back(std::move(*s));
    }
  } else {
    // Written before the probe set: one sample's snapshot.
    Expected<AttentionSnapshot> s = decodeSnapshotObject(*j, name);
    if (!s.ok()) return Error{s.error()};
    probes.samples.push_back(std::move(*s));
  }
  probes.step = probes.samples.front().step;
  return probes;
}

Expected<ProbeSet> readProbeSet(const std::string& path) {
  // A FIFO named step_*.msgpack would block the pool thread in open() for good, and a file
  // larger than any snapshot would be read whole before the checks above.
  Expected<std::string> bytes = readRegularFile(path, kMaxMsgpackFileBytes, Links::kRefuse);
  if (!bytes.ok()) return Error{bytes.error()};
  return decodeProbeSet(*bytes, path);
}

}  // namespace ascope
