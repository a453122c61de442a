// VitImageProcessor: preprocessor_config.json read as ViTImageProcessor reads it, and pixel
// values equal to the real processor's (tests/fixtures/hf/pillow_resize_cases.json "processor",
// and the tiny ViT fixture's own config); bad fields named.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/imaging/vit_image_processor.h"
#include "test_paths.h"

namespace ascope {
namespace {

const std::string kFixtures = std::string(test_paths::fixturesDir()) + "/hf";

TEST(VitImageProcessor, PixelValuesEqualTheRealProcessors) {
  std::ifstream in(kFixtures + "/pillow_resize_cases.json");
  const nlohmann::json c = nlohmann::json::parse(in).at("processor");
  Expected<VitImageProcessor> p = VitImageProcessor::fromJson(c.at("config"), "case");
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ(p->height, 12);
  EXPECT_EQ(p->width, 16);
  const auto pixels = c.at("pixels").get<std::vector<std::uint8_t>>();
  const auto expected = c.at("pixel_values").get<std::vector<float>>();
  const std::vector<float> got = p->process(pixels, c.at("height"), c.at("width"));
  ASSERT_EQ(got.size(), expected.size());
  float worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    worst = std::max(worst, std::abs(got[i] - expected[i]));
  EXPECT_LT(worst, 1e-6f);
}

TEST(VitImageProcessor, ReadsTheTinyVitConfig) {
  Expected<VitImageProcessor> p =
      VitImageProcessor::read(kFixtures + "/tiny_vit/preprocessor_config.json");
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ(p->height, 32);
  EXPECT_EQ(p->width, 32);
  EXPECT_FLOAT_EQ(p->mean[1], 0.5f);
  EXPECT_FLOAT_EQ(p->std[2], 0.5f);
  // A byte of 255 becomes (1 - 0.5) / 0.5 = 1, a byte of 0 becomes -1.
  const std::vector<float> v = p->process(std::vector<std::uint8_t>(3 * 32 * 32, 255), 32, 32);
  EXPECT_FLOAT_EQ(v.front(), 1.0f);
}

TEST(VitImageProcessor, DefaultsAreViTImageProcessors) {
  Expected<VitImageProcessor> p = VitImageProcessor::fromJsonText("{}", "empty.json");
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ(p->height, 224);
  EXPECT_EQ(p->width, 224);
  EXPECT_TRUE(p->do_resize && p->do_rescale && p->do_normalize);
  EXPECT_EQ(p->process(std::vector<std::uint8_t>(3 * 4 * 4, 0), 4, 4).size(), 3u * 224 * 224);
}

TEST(VitImageProcessor, BadFieldsAreNamed) {
  auto error = [](const std::string& text) {
    Expected<VitImageProcessor> p = VitImageProcessor::fromJsonText(text, "pp.json");
    return p.ok() ? std::string("accepted") : p.error();
  };
  EXPECT_EQ(error(R"({"resample": 3})"),
            "pp.json: \"resample\" must be 2 (bilinear, the ViT default; other filters are not "
            "supported), got 3");
  EXPECT_NE(error(R"({"size": {"height": 0, "width": 4}})").find("\"size.height\""),
            std::string::npos);
  EXPECT_NE(error(R"({"size": {"shortest_edge": 224}})").find("\"size\""), std::string::npos);
  EXPECT_NE(
      error(R"({"image_std": [0.5, 0, 0.5]})").find("\"image_std\" must hold finite, non-zero"),
      std::string::npos);
  EXPECT_NE(error(R"({"image_mean": [0.5, 0.5]})").find("\"image_mean\""), std::string::npos);
  EXPECT_NE(error(R"({"do_resize": "yes"})").find("\"do_resize\""), std::string::npos);
  EXPECT_NE(error(R"({"rescale_factor": -1})").find("\"rescale_factor\""), std::string::npos);
  EXPECT_NE(error("[1, 2]").find("not a JSON object"), std::string::npos);
  EXPECT_NE(error("{").find("pp.json"), std::string::npos);
}

}  // namespace
}  // namespace ascope
