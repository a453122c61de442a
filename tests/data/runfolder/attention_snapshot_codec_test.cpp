// Stored snapshots carry what the timeline shows at one step (decoder fields, the probe's
// prediction, the positional encoding); files written before those keys existed still open, and a
// damaged new key is refused with the file's name rather than crashing the reader.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/runfolder/snapshots/attention_snapshot_codec.h"
#include "engine/vocabulary/payloads/text_alignment.h"

namespace ascope {
namespace {

constexpr char kFile[] = "step_000000020.msgpack";

std::string msgpack(const nlohmann::json& j) {
  const std::vector<std::uint8_t> bytes = nlohmann::json::to_msgpack(j);
  return std::string(bytes.begin(), bytes.end());
}

nlohmann::json asJson(const std::string& bytes) {
  return nlohmann::json::from_msgpack(bytes);
}

/// The snapshot's decoding steps; none when it has no transcript.
std::vector<DecodingStep> decodingOf(const AttentionSnapshot& s) {
  const DecodingPayload* t = s.payloads.find<DecodingPayload>();
  return t ? t->steps : std::vector<DecodingStep>{};
}

std::string decodeError(const nlohmann::json& j) {
  Expected<AttentionSnapshot> s = decodeAttentionSnapshot(msgpack(j), kFile);
  return s.ok() ? "ok" : s.error();
}

/// A translation probe as the task writes it: three groups, two decoder rows.
AttentionSnapshot translationSnapshot() {
  AttentionSnapshot s;
  s.step = 20;
  s.task = "translate";
  s.sample_index = 3;
  const std::vector<std::string> source{"[SOS]", "the", "dog", "[EOS]"};
  const std::vector<std::string> target{"[SOS]", "il"};
  const auto group = [](const std::string& name, const std::vector<std::string>& rows,
                        const std::vector<std::string>& cols) {
    AttentionGroup g;
    g.name = name;
    g.layers = 1;
    g.heads = 2;
    g.row_labels = rows;
    g.col_labels = cols;
    const float share = 1.0f / static_cast<float>(cols.size());
    for (int i = 0; i < 2; ++i) {
      g.maps.push_back({static_cast<int>(rows.size()), static_cast<int>(cols.size()),
                        std::vector<float>(rows.size() * cols.size(), share)});
    }
    return g;
  };
  s.groups.push_back(group("encoder self", source, source));
  AttentionGroup decoder = group("decoder self", target, target);
  decoder.causal = true;
  decoder.row_predictions = {"il", "[EOS]"};
  decoder.maps[0].values = {1.0f, 0.0f, 0.25f, 0.75f};
  s.groups.push_back(decoder);
  AttentionGroup cross = group("cross", target, source);
  cross.row_predictions = decoder.row_predictions;
  s.groups.push_back(cross);
  DecodingPayload transcript;
  transcript.steps = {DecodingStep{{{"il", 0.75}, {"cane", 0.125}, {"[EOS]", 0.0625}}},
                      DecodingStep{{{"[EOS]", 0.5}, {"nero", 0.25}}}};
  s.payloads.put(makePayload(std::move(transcript)));
  SamplePrediction sample;
  sample.step = 20;
  sample.task = "translate";
  sample.sample_index = 3;
  sample.input = "the dog";
  sample.expected = "il cane";
  sample.answer = "il";
  sample.probability = 0.0;
  sample.correct = false;
  s.sample = sample;
  PositionalEncodingSnapshot pe;
  pe.step = 20;
  pe.kind = "sinusoidal";
  pe.positions = 3;
  pe.dims = 2;
  pe.values = {0.0f, 1.0f, 0.841f, 0.540f, 0.909f, -0.416f};
  s.positional_encoding = pe;
  return s;
}

TEST(AttentionSnapshotCodec, NewFieldsRoundTrip) {
  const AttentionSnapshot s = translationSnapshot();
  Expected<AttentionSnapshot> back = decodeAttentionSnapshot(encodeAttentionSnapshot(s), kFile);
  ASSERT_TRUE(back.ok()) << back.error();
  ASSERT_EQ(back->groups.size(), 3u);
  EXPECT_FALSE(back->groups[0].causal);
  EXPECT_TRUE(back->groups[0].row_predictions.empty());
  EXPECT_TRUE(back->groups[1].causal);
  EXPECT_EQ(back->groups[1].row_predictions, s.groups[1].row_predictions);
  EXPECT_EQ(back->groups[1].maps[0].values, s.groups[1].maps[0].values);
  EXPECT_FALSE(back->groups[2].causal);
  EXPECT_EQ(back->groups[2].row_predictions, s.groups[2].row_predictions);
  ASSERT_EQ(decodingOf(*back).size(), 2u);
  EXPECT_EQ(decodingOf(*back)[0].top, decodingOf(s)[0].top);
  EXPECT_EQ(decodingOf(*back)[1].top, decodingOf(s)[1].top);
  EXPECT_FALSE(back->payloads.find<DecodingPayload>()->fed_reference);

  ASSERT_TRUE(back->sample.has_value());
  EXPECT_EQ(back->sample->step, 20);
  EXPECT_EQ(back->sample->task, "translate");
  EXPECT_EQ(back->sample->sample_index, 3);
  EXPECT_EQ(back->sample->input, "the dog");
  EXPECT_EQ(back->sample->expected, "il cane");
  EXPECT_EQ(back->sample->answer, "il");
  EXPECT_EQ(back->sample->probability, 0.0);
  EXPECT_FALSE(back->sample->correct);
  EXPECT_TRUE(back->sample->payloads.empty());

  ASSERT_TRUE(back->positional_encoding.has_value());
  EXPECT_EQ(back->positional_encoding->step, 20);
  EXPECT_EQ(back->positional_encoding->kind, "sinusoidal");
  EXPECT_EQ(back->positional_encoding->positions, 3);
  EXPECT_EQ(back->positional_encoding->dims, 2);
  EXPECT_EQ(back->positional_encoding->values, s.positional_encoding->values);
  EXPECT_FALSE(back->positional_encoding->has_cls);
}

TEST(AttentionSnapshotCodec, ImageSampleAndPatchGridRoundTrip) {
  AttentionSnapshot s;
  s.step = 7;
  s.task = "vit";
  AttentionGroup g;
  g.name = "encoder";
  g.layers = g.heads = 1;
  g.row_labels = g.col_labels = {"CLS", "0", "1", "2", "3"};
  g.maps.push_back({5, 5, std::vector<float>(25, 0.2f)});
  s.groups.push_back(g);
  ImagePayload image;
  image.image = {4, 4, std::vector<std::uint8_t>(48, 7)};
  image.patch_size = 2;
  image.grid_rows = image.grid_cols = 2;
  s.payloads.put(makePayload(image));
  SamplePrediction sample;
  sample.step = 7;
  sample.task = "vit";
  sample.payloads.put(makePayload(image));
  sample.expected = "circle";
  sample.answer = "square";
  sample.probability = 0.625;
  s.sample = sample;
  PositionalEncodingSnapshot pe;
  pe.step = 7;
  pe.kind = "learned";
  pe.positions = 5;
  pe.dims = 3;
  pe.values.assign(15, -0.5f);
  pe.grid_rows = pe.grid_cols = 2;
  pe.has_cls = true;
  s.positional_encoding = pe;
  Expected<AttentionSnapshot> back = decodeAttentionSnapshot(encodeAttentionSnapshot(s), kFile);
  ASSERT_TRUE(back.ok()) << back.error();
  ASSERT_TRUE(back->sample.has_value());
  const ImagePayload* sample_image = back->sample->payloads.find<ImagePayload>();
  ASSERT_NE(sample_image, nullptr);
  EXPECT_EQ(sample_image->image.width, 4);
  EXPECT_EQ(sample_image->image.height, 4);
  EXPECT_EQ(sample_image->image.pixels, image.image.pixels);
  const ImagePayload* grid = back->payloads.find<ImagePayload>();
  ASSERT_NE(grid, nullptr);
  EXPECT_EQ(grid->patch_size, 2);
  EXPECT_EQ(grid->grid_rows, 2);
  EXPECT_EQ(grid->grid_cols, 2);
  EXPECT_EQ(back->sample->probability, 0.625);
  EXPECT_EQ(back->sample->answer, "square");
  ASSERT_TRUE(back->positional_encoding.has_value());
  EXPECT_TRUE(back->positional_encoding->has_cls);
  EXPECT_EQ(back->positional_encoding->grid_rows, 2);
  EXPECT_EQ(back->positional_encoding->grid_cols, 2);
  EXPECT_TRUE(decodingOf(*back).empty());
}

TEST(AttentionSnapshotCodec, OldFilesWithoutTheNewKeysStillDecode) {
  // Exactly the keys version 1 wrote before the decoder fields, the sample and the encoding.
  const nlohmann::json old = {
      {"version", 1},
      {"step", 1200},
      {"task", "translate"},
      {"sample_index", 0},
      {"groups",
       {{{"name", "decoder self"},
         {"layers", 1},
         {"heads", 1},
         {"row_labels", {"[SOS]", "il"}},
         {"col_labels", {"[SOS]", "il"}},
         {"maps", {{{"rows", 2}, {"cols", 2}, {"values", {1.0, 0.0, 0.5, 0.5}}}}}}}},
      {"image_width", 0},
      {"image_height", 0},
      {"image", nlohmann::json::binary({})},
      {"patch_size", 0},
      {"grid_rows", 0},
      {"grid_cols", 0}};
  Expected<AttentionSnapshot> s = decodeAttentionSnapshot(msgpack(old), kFile);
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->step, 1200);
  ASSERT_EQ(s->groups.size(), 1u);
  EXPECT_FALSE(s->groups[0].causal);
  EXPECT_TRUE(s->groups[0].row_predictions.empty());
  EXPECT_TRUE(s->payloads.empty());  // the empty image keys of every old file are no image
  EXPECT_FALSE(s->sample.has_value());
  EXPECT_FALSE(s->positional_encoding.has_value());
  // And what is written now still says version 1: readers that predate the new keys skip them.
  EXPECT_EQ(asJson(encodeAttentionSnapshot(translationSnapshot())).at("version"), 1);
}

TEST(AttentionSnapshotCodec, MalformedNewFieldsNameTheFileAndTheField) {
  const nlohmann::json good = asJson(encodeAttentionSnapshot(translationSnapshot()));
  ASSERT_EQ(decodeError(good), "ok");
  const std::string file = std::string(kFile) + ": ";
  // Each: an edit of a good file, what the one error must say after the file name.
  struct Case {
    const char* what;
    nlohmann::json edited;
    std::string expected;
  };
  std::vector<Case> cases;
  const auto edit = [&](const char* what, auto change, const std::string& expected) {
    nlohmann::json j = good;
    change(j);
    cases.push_back({what, j, expected});
  };
  edit(
      "row_predictions size", [](nlohmann::json& j) { j["groups"][1]["row_predictions"] = {"il"}; },
      "group \"decoder self\": row_predictions has 1 labels for 2 rows");
  edit(
      "row_predictions type", [](nlohmann::json& j) { j["groups"][1]["row_predictions"] = 3; },
      "group \"decoder self\": row_predictions is not an array");
  edit(
      "row_predictions label type",
      [](nlohmann::json& j) { j["groups"][1]["row_predictions"][1] = 4; },
      "group \"decoder self\": row_predictions[1] is not a string");
  edit(
      "causal type", [](nlohmann::json& j) { j["groups"][1]["causal"] = "yes"; },
      "group \"decoder self\": causal is not a boolean");
  edit(
      "decoding type", [](nlohmann::json& j) { j["decoding"] = "steps"; },
      "decoding is not an array of at most 4096 steps");
  edit(
      "decoding count", [](nlohmann::json& j) { j["decoding"].erase(1); },
      "decoding has 1 steps for 2 rows of group \"decoder self\"");
  edit(
      "decoding step type", [](nlohmann::json& j) { j["decoding"][0] = 5; },
      "decoding[0] is not a map");
  edit(
      "candidates type",
      [](nlohmann::json& j) { j["decoding"][1]["top"] = nlohmann::json::array({5}); },
      "decoding[1].top[0] is not a map");
  edit(
      "probability range",
      [](nlohmann::json& j) { j["decoding"][0]["top"][2]["probability"] = 2.5; },
      "decoding[0].top[2].probability 2.5 is outside 0..1");
  edit(
      "probability type",
      [](nlohmann::json& j) { j["decoding"][0]["top"][0]["probability"] = "high"; },
      "decoding[0].top[0].probability is not a number");
  edit(
      "token type", [](nlohmann::json& j) { j["decoding"][0]["top"][0]["token"] = 1; },
      "decoding[0].top[0].token is not a string");
  edit(
      "sample type",
      [](nlohmann::json& j) {
        j["sample"] = {1, 2};
      },
      "sample is not a map");
  edit(
      "sample step", [](nlohmann::json& j) { j["sample"]["step"] = -1; },
      "sample: step -1 is outside 0..9223372036854775807");
  edit(
      "sample image size",
      [](nlohmann::json& j) {
        j["sample"]["image_width"] = 4;
        j["sample"]["image_height"] = 4;
        j["sample"]["image"] = nlohmann::json::binary(std::vector<std::uint8_t>(5, 0));
      },
      "sample: image of 4×4 has 5 bytes (expected 16 or 48)");
  edit(
      "sample text type", [](nlohmann::json& j) { j["sample"]["text"] = {"a"}; },
      "sample: text is not a string");
  edit(
      "sample probability", [](nlohmann::json& j) { j["sample"]["probability"] = -0.5; },
      "sample: probability -0.5 is outside 0..1");
  edit(
      "sample correct type", [](nlohmann::json& j) { j["sample"]["correct"] = 1; },
      "sample: correct is not a boolean");
  edit(
      "encoding type", [](nlohmann::json& j) { j["positional_encoding"] = "sin"; },
      "positional_encoding is not a map");
  edit(
      "encoding values count",
      [](nlohmann::json& j) { j["positional_encoding"]["values"].erase(0); },
      "positional_encoding: values has 5 values for 3 positions × 2 dims");
  edit(
      "encoding dims range", [](nlohmann::json& j) { j["positional_encoding"]["dims"] = -2; },
      "positional_encoding: dims -2 is outside 0..16384");
  edit(
      "encoding grid",
      [](nlohmann::json& j) {
        j["positional_encoding"]["grid_rows"] = 2;
        j["positional_encoding"]["grid_cols"] = 2;
        j["positional_encoding"]["has_cls"] = true;
      },
      "positional_encoding: a grid of 2×2 after CLS does not fit 3 positions");
  edit(
      "encoding has_cls type",
      [](nlohmann::json& j) { j["positional_encoding"]["has_cls"] = "no"; },
      "positional_encoding: has_cls is not a boolean");
  for (const Case& c : cases) {
    EXPECT_EQ(decodeError(c.edited), file + c.expected) << c.what;
  }

  // Wrong kinds deep inside arrays come from the JSON library: still one error naming the file.
  for (const auto& change : std::vector<std::function<void(nlohmann::json&)>>{
           [](nlohmann::json& j) { j["positional_encoding"]["values"][0] = "zero"; },
           [](nlohmann::json& j) { j["decoding"][0].erase("top"); },
           [](nlohmann::json& j) { j["sample"].erase("step"); },
           [](nlohmann::json& j) { j["positional_encoding"].erase("values"); }}) {
    nlohmann::json j = good;
    change(j);
    const std::string error = decodeError(j);
    EXPECT_EQ(error.rfind(file, 0), 0u) << error;
  }
}

TEST(AttentionSnapshotCodec, AnAlignmentTravelsWithItsSample) {
  AttentionSnapshot s = translationSnapshot();
  s.sample->payloads.put(makePayload(TextAlignment::align("olleh", "oleeh!")));
  Expected<AttentionSnapshot> back = decodeAttentionSnapshot(encodeAttentionSnapshot(s), kFile);
  ASSERT_TRUE(back.ok()) << back.error();
  const TextAlignment* a = back->sample->payloads.find<TextAlignment>();
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->distance(), 2);  // one character replaced, one added
  ASSERT_EQ(a->columns.size(), 6u);
  EXPECT_EQ(a->columns.back().edit, TextAlignment::Edit::kInsert);
  EXPECT_EQ(a->columns.back().answer, "!");

  nlohmann::json j = asJson(encodeAttentionSnapshot(s));
  j["sample"]["alignment"][0] = {"=", "o", "x"};  // a match of two different characters
  EXPECT_EQ(decodeError(j),
            std::string(kFile) +
                ": sample: alignment[0] is not a match, substitution, deletion or insertion");
}

TEST(AttentionSnapshotCodec, NanProbabilitiesOfADivergedModelStayReadable) {
  // A run whose loss went non-finite is still probed in the GUI: its steps must open.
  AttentionSnapshot s = translationSnapshot();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  DecodingPayload transcript = *s.payloads.find<DecodingPayload>();
  transcript.steps[0].top[0].second = nan;
  s.payloads.put(makePayload(std::move(transcript)));
  s.sample->probability = nan;
  s.positional_encoding->values[0] = std::numeric_limits<float>::quiet_NaN();
  Expected<AttentionSnapshot> back = decodeAttentionSnapshot(encodeAttentionSnapshot(s), kFile);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_TRUE(std::isnan(decodingOf(*back)[0].top[0].second));
  EXPECT_TRUE(std::isnan(back->sample->probability));
  EXPECT_TRUE(std::isnan(back->positional_encoding->values[0]));
}

}  // namespace
}  // namespace ascope

namespace ascope {
namespace {

/// A probe set of `count` samples: the translation probe with every weight of sample k scaled so
/// the samples differ, and odd weights that float16 must round.
ProbeSet probeSet(int count) {
  ProbeSet probes;
  probes.step = 20;
  for (int k = 0; k < count; ++k) {
    AttentionSnapshot s = translationSnapshot();
    s.sample_index = 10 + k;
    for (AttentionGroup& g : s.groups) {
      for (AttentionMap& m : g.maps) {
        for (std::size_t i = 0; i < m.values.size(); ++i) {
          m.values[i] = static_cast<float>((i + 1) * (k + 1)) / 7.0f / 100.0f;
        }
      }
    }
    probes.samples.push_back(std::move(s));
  }
  return probes;
}

TEST(ProbeSetCodec, EverySampleRoundTripsWithFloat16Weights) {
  const ProbeSet probes = probeSet(3);
  Expected<ProbeSet> back = decodeProbeSet(encodeProbeSet(probes), kFile);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->step, 20);
  ASSERT_EQ(back->samples.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    const AttentionSnapshot& a = probes.samples[k];
    const AttentionSnapshot& b = back->samples[k];
    EXPECT_EQ(b.sample_index, 10 + static_cast<int>(k));
    EXPECT_EQ(decodingOf(b).size(), decodingOf(a).size());
    ASSERT_TRUE(b.sample.has_value());
    EXPECT_EQ(b.sample->answer, a.sample->answer);
    ASSERT_EQ(b.groups.size(), a.groups.size());
    for (std::size_t g = 0; g < a.groups.size(); ++g) {
      ASSERT_EQ(b.groups[g].maps.size(), a.groups[g].maps.size());
      for (std::size_t m = 0; m < a.groups[g].maps.size(); ++m) {
        const std::vector<float>& x = a.groups[g].maps[m].values;
        const std::vector<float>& y = b.groups[g].maps[m].values;
        ASSERT_EQ(x.size(), y.size());
        // binary16 keeps 11 significant bits: a relative error of at most 2^-11.
        for (std::size_t i = 0; i < x.size(); ++i) {
          EXPECT_LE(std::fabs(x[i] - y[i]), std::ldexp(std::fabs(x[i]), -11)) << i;
        }
      }
    }
  }
}

TEST(ProbeSetCodec, WeightsTakeTwoBytesEach) {
  AttentionSnapshot s = translationSnapshot();
  s.sample.reset();
  s.positional_encoding.reset();
  s.payloads = Payloads{};
  AttentionGroup big;
  big.name = "encoder";
  big.layers = 2;
  big.heads = 4;
  big.row_labels = big.col_labels = std::vector<std::string>(64, "w");
  for (int m = 0; m < 8; ++m) big.maps.push_back({64, 64, std::vector<float>(64 * 64, 0.3f)});
  s.groups = {big};
  ProbeSet probes;
  probes.step = s.step;
  probes.samples = {s};
  const std::size_t weights = 8 * 64 * 64;
  const std::size_t as_float32 = encodeAttentionSnapshot(s).size();
  const std::size_t as_float16 = encodeProbeSet(probes).size();
  EXPECT_GE(as_float32, 5 * weights);  // MessagePack float32: a marker byte and four bytes
  EXPECT_LT(as_float16, 2 * weights + 4096);
}

TEST(ProbeSetCodec, ASingleSnapshotOfAnOlderRunReadsAsASetOfOne) {
  const AttentionSnapshot s = translationSnapshot();
  Expected<ProbeSet> back = decodeProbeSet(encodeAttentionSnapshot(s), kFile);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->step, s.step);
  ASSERT_EQ(back->samples.size(), 1u);
  EXPECT_EQ(back->samples[0].groups[0].maps[0].values, s.groups[0].maps[0].values);  // float32
}

TEST(ProbeSetCodec, DamagedSetsNameTheFileAndTheSample) {
  nlohmann::json j = asJson(encodeProbeSet(probeSet(2)));
  nlohmann::json empty = j;
  empty["samples"] = nlohmann::json::array();
  Expected<ProbeSet> none = decodeProbeSet(msgpack(empty), kFile);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error(),
            std::string(kFile) + ": \"samples\" is not an array of 1 to 64 snapshots");

  nlohmann::json& map = j["samples"][1]["groups"][0]["maps"][0];
  map["values_f16"] = nlohmann::json::binary(std::vector<std::uint8_t>(5, 0));
  Expected<ProbeSet> short_map = decodeProbeSet(msgpack(j), kFile);
  ASSERT_FALSE(short_map.ok());
  EXPECT_NE(short_map.error().find(std::string(kFile) + " (sample 1): attention map of "),
            std::string::npos)
      << short_map.error();
  EXPECT_NE(short_map.error().find("has 5 bytes of float16 values for "), std::string::npos)
      << short_map.error();
}

TEST(ProbeSetCodec, ThePositionalEncodingIsStoredAsBytesAndReadExactly) {
  ProbeSet probes = probeSet(2);
  PositionalEncodingSnapshot pe;
  pe.step = 20;
  pe.kind = "learned";
  pe.positions = 40;
  pe.dims = 16;
  for (int i = 0; i < 40 * 16; ++i) pe.values.push_back(std::sin(0.37f * i) * 1e3f + 1e-7f * i);
  pe.values[5] = -0.0f;
  probes.samples[0].positional_encoding = pe;
  const std::string bytes = encodeProbeSet(probes);
  const nlohmann::json stored = asJson(bytes)["samples"][0]["positional_encoding"];
  EXPECT_FALSE(stored.contains("values"));
  ASSERT_TRUE(stored.at("values_f32").is_binary());
  EXPECT_EQ(stored.at("values_f32").get_binary().size(), 4u * 40 * 16);
  Expected<ProbeSet> back = decodeProbeSet(bytes, kFile);
  ASSERT_TRUE(back.ok()) << back.error();
  ASSERT_TRUE(back->samples[0].positional_encoding.has_value());
  const std::vector<float>& read = back->samples[0].positional_encoding->values;
  ASSERT_EQ(read.size(), pe.values.size());
  EXPECT_EQ(std::memcmp(read.data(), pe.values.data(), read.size() * sizeof(float)), 0);

  // A set written before (version 2: the values as an array of numbers) reads the same.
  nlohmann::json older = asJson(bytes);
  older["version"] = 2;
  nlohmann::json& old_pe = older["samples"][0]["positional_encoding"];
  old_pe.erase("values_f32");
  old_pe["values"] = pe.values;
  Expected<ProbeSet> old_back = decodeProbeSet(msgpack(older), kFile);
  ASSERT_TRUE(old_back.ok()) << old_back.error();
  EXPECT_EQ(old_back->samples[0].positional_encoding->values, pe.values);

  // Bytes short of the shape are refused by name.
  nlohmann::json damaged = asJson(bytes);
  damaged["samples"][0]["positional_encoding"]["values_f32"] =
      nlohmann::json::binary(std::vector<std::uint8_t>(7, 0));
  Expected<ProbeSet> refused = decodeProbeSet(msgpack(damaged), kFile);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("positional_encoding: values_f32 has 7 bytes for 40 positions × "
                                 "16 dims"),
            std::string::npos)
      << refused.error();
}

}  // namespace
}  // namespace ascope
