// The handout's packing: base64, 8-bit weights with their scale, the page's escaping, the colour
// levels, and a frame packed and read back as the page reads it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "engine/handout/base64.h"
#include "engine/handout/handout_packer.h"
#include "engine/handout/handout_page.h"
#include "engine/handout/quantized_weights.h"

namespace ascope {
namespace {

TEST(HandoutBase64, KnownVectorsAndRoundTrips) {
  EXPECT_EQ(base64Encode(std::string_view("")), "");
  EXPECT_EQ(base64Encode(std::string_view("f")), "Zg==");
  EXPECT_EQ(base64Encode(std::string_view("fo")), "Zm8=");
  EXPECT_EQ(base64Encode(std::string_view("foobar")), "Zm9vYmFy");
  std::mt19937 random(7);
  for (std::size_t n = 0; n < 70; ++n) {
    std::string bytes(n, '\0');
    for (char& c : bytes) c = static_cast<char>(random() & 0xff);
    const std::string text = base64Encode(bytes);
    EXPECT_EQ(text.size(), base64Size(n));
    ASSERT_EQ(base64Decode(text), bytes) << n;
  }
  EXPECT_FALSE(base64Decode("abc").has_value());
  EXPECT_FALSE(base64Decode("ab!d").has_value());
  EXPECT_FALSE(base64Decode("a=bc").has_value());
}

TEST(HandoutQuantizedWeights, EveryWeightWithinHalfAStepOfItsScale) {
  std::mt19937 random(3);
  std::uniform_real_distribution<float> weight(0.0f, 0.8f);
  std::vector<float> values(1000);
  for (float& v : values) v = weight(random);
  values[17] = 0.8123f;
  std::vector<std::uint8_t> codes;
  const float scale = quantizeWeights(values.data(), values.size(), codes);
  EXPECT_FLOAT_EQ(scale, 0.8123f);
  ASSERT_EQ(codes.size(), values.size());
  EXPECT_EQ(codes[17], kTopCode);
  for (std::size_t i = 0; i < values.size(); ++i) {
    EXPECT_NEAR(dequantizeWeight(codes[i], scale), values[i], scale / (2 * kTopCode) + 1e-7) << i;
    EXPECT_NE(codes[i], kMissingCode);
  }
}

TEST(HandoutQuantizedWeights, MaskedNegativeAndEmptyMaps) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> values = {0.5f, nan, -0.25f, inf, 0.25f};
  std::vector<std::uint8_t> codes = {42};  // appended after what is there
  const float scale = quantizeWeights(values.data(), values.size(), codes);
  EXPECT_FLOAT_EQ(scale, 0.5f);
  ASSERT_EQ(codes.size(), 6u);
  EXPECT_EQ(codes[0], 42);
  EXPECT_EQ(codes[1], kTopCode);
  EXPECT_EQ(codes[2], kMissingCode);
  EXPECT_EQ(codes[3], 0);  // a negative weight is no weight
  EXPECT_EQ(codes[4], kMissingCode);
  EXPECT_TRUE(std::isnan(dequantizeWeight(codes[2], scale)));
  std::vector<float> zeros(4, 0.0f);
  std::vector<std::uint8_t> zero_codes;
  EXPECT_EQ(quantizeWeights(zeros.data(), zeros.size(), zero_codes), 0.0f);
  for (std::uint8_t c : zero_codes) EXPECT_EQ(c, 0);
}

TEST(HandoutQuantizedWeights, SignedAndRangedValues) {
  std::vector<float> pe = {-1.5f, 0.0f, 0.75f, 1.2f, std::nanf("")};
  std::vector<std::int8_t> codes;
  const float scale = quantizeSigned(pe.data(), pe.size(), codes);
  EXPECT_FLOAT_EQ(scale, 1.5f);
  EXPECT_EQ(codes[0], -127);
  EXPECT_EQ(codes[4], 0);
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_NEAR(dequantizeSigned(codes[i], scale), pe[i], scale / 254);
  std::vector<float> stats = {2.0f, 14.0f, std::nanf(""), 8.0f};
  std::vector<std::uint8_t> ranged;
  const QuantizedRange range = quantizeRange(stats.data(), stats.size(), ranged);
  EXPECT_FLOAT_EQ(range.low, 2.0f);
  EXPECT_FLOAT_EQ(range.high, 14.0f);
  EXPECT_EQ(ranged[2], kMissingCode);
  EXPECT_NEAR(dequantizeRange(ranged[3], range), 8.0f, 12.0f / 508);
}

TEST(HandoutPage, DataCannotCloseItsScriptElement) {
  const std::string hostile = R"({"label":"</script><script>alert(1)</script><!--"})";
  const std::string safe = scriptSafeJson(hostile);
  EXPECT_EQ(safe.find('<'), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(safe)["label"], "</script><script>alert(1)</script><!--");
  EXPECT_EQ(htmlEscape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
  const std::string page = renderHandoutPage("run </title><script>", hostile);
  EXPECT_EQ(page.find("</script><script>alert"), std::string::npos);
  EXPECT_NE(page.find("<title>run &lt;/title&gt;&lt;script&gt;</title>"), std::string::npos);
}

TEST(HandoutPage, IsSelfContained) {
  const std::string page = renderHandoutPage("t", "{}");
  // Fetching is forbidden to the page as a whole, and nothing in it points outside the file.
  EXPECT_NE(page.find("default-src 'none'"), std::string::npos);
  for (const char* outside : {"http://", "https://", "src=\"", "src='", "@import", "url("}) {
    EXPECT_EQ(page.find(outside), std::string::npos) << outside;
  }
  // The template's markers are all filled.
  for (const char* marker :
       {"HANDOUT_DATA", "HANDOUT_TITLE", "/*HANDOUT_STYLE*/", "/*HANDOUT_SCRIPT*/"}) {
    EXPECT_EQ(page.find(marker), std::string::npos) << marker;
  }
  EXPECT_NE(page.find("'use strict'"), std::string::npos);
}

TEST(HandoutPacker, ViridisLevelsAreTheWindowsStops) {
  const std::vector<std::uint8_t> levels = HandoutPacker::viridisLevels();
  ASSERT_EQ(levels.size(), 256u * 3);
  EXPECT_EQ(levels[0], 0x44);
  EXPECT_EQ(levels[1], 0x01);
  EXPECT_EQ(levels[2], 0x54);
  EXPECT_EQ(levels[765], 0xfd);
  EXPECT_EQ(levels[766], 0xe7);
  EXPECT_EQ(levels[767], 0x25);
  // Level 51 sits on the third stop (0.2 · 255), 0x414487.
  EXPECT_EQ(levels[51 * 3], 0x41);
  EXPECT_EQ(levels[51 * 3 + 1], 0x44);
}

HandoutFrame frameWithLabels(std::int64_t step, float base) {
  HandoutFrame frame;
  frame.step = step;
  HandoutProbe probe;
  probe.sample_index = 9;
  HandoutAttention a;
  a.group = 0;
  a.layers = 2;
  a.heads = 2;
  a.rows = 2;
  a.cols = 3;
  a.row_labels = {"[CLS]", "hello"};
  a.col_labels = {"[CLS]", "hello", "world"};
  for (int i = 0; i < 24; ++i) a.weights.push_back(base + 0.01f * static_cast<float>(i));
  probe.attention.push_back(a);
  probe.prediction = HandoutPrediction{"hello world", "positive", "negative", 0.7, false};
  frame.probes.push_back(probe);
  return frame;
}

TEST(HandoutPacker, FramesReadBackAsThePageReadsThem) {
  HandoutPacker packer;
  HandoutSelection all;
  all.probes = 1;
  all.groups = {true};
  all.layers = {{true, true}};
  const HandoutFrame first = frameWithLabels(100, 0.1f);
  const nlohmann::json packed = packer.packFrame(first, all);
  const nlohmann::json second = packer.packFrame(frameWithLabels(200, 0.2f), all);
  const nlohmann::json& item = packed["probes"][0]["attention"][0];
  EXPECT_EQ(packed["step"], 100);
  EXPECT_EQ(item["layers"], nlohmann::json::array({0, 1}));
  const std::string codes = *base64Decode(item["weights"].get<std::string>());
  const std::string scales = *base64Decode(item["scales"].get<std::string>());
  ASSERT_EQ(codes.size(), 24u);
  ASSERT_EQ(scales.size(), 4u * 4);
  for (int map = 0; map < 4; ++map) {
    float scale = 0;
    std::memcpy(&scale, scales.data() + 4 * map, 4);  // little-endian, as this machine
    for (int cell = 0; cell < 6; ++cell) {
      const float shown = dequantizeWeight(static_cast<std::uint8_t>(codes[6 * map + cell]), scale);
      EXPECT_NEAR(shown, first.probes[0].attention[0].weights[6 * map + cell], scale / 508 + 1e-7);
    }
  }
  // Labels and texts are stored once for both frames.
  EXPECT_EQ(item["row_labels"], second["probes"][0]["attention"][0]["row_labels"]);
  HandoutData data;
  HandoutGroup group;
  group.key = "encoder";
  group.title = "encoder self";
  data.groups.push_back(group);
  const nlohmann::json doc =
      nlohmann::json::parse(packer.document(data, {packed, second}, all, {}, 20));
  EXPECT_EQ(doc["labels"].size(), 2u);
  EXPECT_EQ(doc["texts"].size(), 3u);  // text, truth, prediction: the same in both frames
  EXPECT_EQ(doc["frames"].size(), 2u);
}

TEST(HandoutPacker, LeftOutLayersAndGroupsAreNotPacked) {
  HandoutPacker packer;
  HandoutSelection some;
  some.probes = 1;
  some.groups = {true};
  some.layers = {{false, true}};
  const nlohmann::json packed = packer.packFrame(frameWithLabels(100, 0.1f), some);
  const nlohmann::json& item = packed["probes"][0]["attention"][0];
  EXPECT_EQ(item["layers"], nlohmann::json::array({1}));
  EXPECT_EQ(base64Decode(item["weights"].get<std::string>())->size(), 12u);
  some.groups = {false};
  EXPECT_TRUE(packer.packFrame(frameWithLabels(100, 0.1f), some)["probes"][0]["attention"].empty());
  some.probes = 0;
  EXPECT_TRUE(packer.packFrame(frameWithLabels(100, 0.1f), some)["probes"].empty());
}

}  // namespace
}  // namespace ascope
