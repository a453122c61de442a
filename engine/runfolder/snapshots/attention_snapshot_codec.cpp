#include "engine/runfolder/snapshots/attention_snapshot_codec.h"

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "engine/core/float_bytes.h"
#include "engine/core/half_float.h"
#include "engine/core/msgpack_limits.h"
#include "engine/core/regular_file.h"
#include "engine/runfolder/payloads/payload_codec.h"

namespace ascope {
namespace {

/// More probe samples than the trainer ever takes (TrainingConfig allows 16).
constexpr std::size_t kMaxProbeSetSamples = 64;

/// One sample's snapshot as a map; `halves`: weights as binary16 bytes ("values_f16") and the
/// positional encoding as float32 bytes ("values_f32"), as a probe set stores them.
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
  nlohmann::json j = {{"version", 1},
                      {"step", s.step},
                      {"task", s.task},
                      {"sample_index", s.sample_index},
                      {"groups", groups}};
  encodePayloads(s.payloads, j);
  if (s.sample) {
    const SamplePrediction& p = *s.sample;
    // The three texts keep the keys they have always had in the file.
    nlohmann::json sample = {{"step", p.step},
                             {"task", p.task},
                             {"sample_index", p.sample_index},
                             {"text", p.input},
                             {"true_label", p.expected},
                             {"predicted_label", p.answer},
                             {"probability", p.probability},
                             {"correct", p.correct}};
    encodePayloads(p.payloads, sample);
    j["sample"] = std::move(sample);
  }
  if (s.positional_encoding) {
    const PositionalEncodingSnapshot& pe = *s.positional_encoding;
    j["positional_encoding"] = {{"step", pe.step},           {"kind", pe.kind},
                                {"positions", pe.positions}, {"dims", pe.dims},
                                {"grid_rows", pe.grid_rows}, {"grid_cols", pe.grid_cols},
                                {"has_cls", pe.has_cls}};
    // In a probe set as float32 bytes: as an array, its tens of thousands of numbers were 99 % of
    // the nodes a reader builds for a whole file (opening a run reads every file).
    if (halves) {
      j["positional_encoding"]["values_f32"] = nlohmann::json::binary(packFloat32s(pe.values));
    } else {
      j["positional_encoding"]["values"] = pe.values;
    }
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
  constexpr std::int64_t kMaxSide = MsgpackFields::kMaxSide;  // rows, columns, labels, images
  constexpr std::int64_t kMaxLayersOrHeads = 1024;
  constexpr std::size_t kMaxGroups = 64;
  constexpr std::size_t kMaxSampleTextBytes = 1 << 20;              // a review is a few KiB
  constexpr std::int64_t kMaxPositions = 100000, kMaxDims = 16384;  // the model configs' bounds
  const MsgpackFields f(name);
  const auto integer = [&f](const nlohmann::json& object, const char* key, std::int64_t min,
                            std::int64_t max, const std::string& where) {
    return f.integer(object, key, min, max, where);
  };
  const auto text = [&f](const nlohmann::json& v, const std::string& what) {
    return f.text(v, what);
  };
  try {
    if (!j.is_object()) return Error{name + ": not an attention snapshot (not a map)"};
    AttentionSnapshot s;
    s.step = integer(j, "step", 0, INT64_MAX, "");
    s.task = text(j.at("task"), "task");
    s.sample_index = f.optionalInteger(j, "sample_index", INT32_MAX);
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
      group.row_labels = f.labels(g, "row_labels", where);
      group.col_labels = f.labels(g, "col_labels", where);
      group.causal = f.flag(g, "causal", where);
      if (g.contains("row_predictions")) {
        group.row_predictions = f.labels(g, "row_predictions", where);
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
    s.payloads = decodePayloads(j, f);
    for (const std::shared_ptr<const Payload>& payload : s.payloads.all()) {
      const PayloadCodec* codec = findPayloadCodec(payload->kind());
      if (codec->check) {
        if (const std::string wrong = codec->check(*payload, s.groups); !wrong.empty()) {
          return Error{name + ": " + wrong};
        }
      }
    }
    if (j.contains("sample")) {
      const nlohmann::json& p = f.submap(j, "sample");
      const std::string where = "sample: ";
      SamplePrediction sample;
      sample.step = integer(p, "step", 0, INT64_MAX, where);
      sample.task = text(p.at("task"), where + "task");
      if (p.contains("sample_index")) {
        sample.sample_index = static_cast<int>(integer(p, "sample_index", 0, INT32_MAX, where));
      }
      sample.input = f.optionalText(p, "text", where, kMaxSampleTextBytes);
      sample.expected = f.optionalText(p, "true_label", where, kMaxSampleTextBytes);
      sample.answer = f.optionalText(p, "predicted_label", where, kMaxSampleTextBytes);
      if (p.contains("probability")) {
        sample.probability = f.probability(p.at("probability"), where + "probability");
      }
      sample.correct = f.flag(p, "correct", where);
      sample.payloads = decodePayloads(p, f.within(where));
      s.sample = std::move(sample);
    }
    if (j.contains("positional_encoding")) {
      const nlohmann::json& e = f.submap(j, "positional_encoding");
      const std::string where = "positional_encoding: ";
      PositionalEncodingSnapshot pe;
      pe.step = integer(e, "step", 0, INT64_MAX, where);
      pe.kind = f.optionalText(e, "kind", where, MsgpackFields::kMaxLabelBytes);
      pe.positions = static_cast<int>(integer(e, "positions", 0, kMaxPositions, where));
      pe.dims = static_cast<int>(integer(e, "dims", 0, kMaxDims, where));
      const std::size_t count = static_cast<std::size_t>(pe.positions) * pe.dims;
      const std::string shape =
          std::to_string(pe.positions) + " positions × " + std::to_string(pe.dims) + " dims";
      if (e.contains("values_f32")) {
        const nlohmann::json& bytes = e.at("values_f32");
        if (!bytes.is_binary() || bytes.get_binary().size() != 4 * count) {
          return Error{
              name + ": " + where + "values_f32 has " +
              (bytes.is_binary() ? std::to_string(bytes.get_binary().size()) : std::string("no")) +
              " bytes for " + shape};
        }
        pe.values = unpackFloat32s(bytes.get_binary());
      } else {
        const nlohmann::json& values = e.at("values");
        if (!values.is_array() || values.size() != count) {
          return Error{name + ": " + where + "values has " +
                       (values.is_array() ? std::to_string(values.size()) : std::string("no")) +
                       " values for " + shape};
        }
        pe.values = values.get<std::vector<float>>();
      }
      if (e.contains("grid_rows")) {
        pe.grid_rows = static_cast<int>(integer(e, "grid_rows", 0, kMaxSide, where));
      }
      if (e.contains("grid_cols")) {
        pe.grid_cols = static_cast<int>(integer(e, "grid_cols", 0, kMaxSide, where));
      }
      pe.has_cls = f.flag(e, "has_cls", where);
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
  } catch (const FieldError& refused) {
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
  return toBytes({{"version", 3}, {"step", probes.step}, {"samples", samples}});
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
