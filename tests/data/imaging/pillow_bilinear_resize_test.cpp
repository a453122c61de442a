// resizeBilinearLikePillow against Pillow itself (tests/fixtures/hf/pillow_resize_cases.json,
// written by scripts/generate_pillow_resize_cases.py): every byte equal, up and down, square and
// not, one axis at a time.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/imaging/pillow_bilinear_resize.h"
#include "test_paths.h"

namespace ascope {
namespace {

nlohmann::json resizeCases() {
  std::ifstream in(std::string(test_paths::fixturesDir()) + "/hf/pillow_resize_cases.json");
  return nlohmann::json::parse(in);
}

TEST(PillowBilinearResize, EveryByteEqualsPillows) {
  const nlohmann::json all = resizeCases();
  ASSERT_GE(all.at("cases").size(), 7u);
  for (const nlohmann::json& c : all.at("cases")) {
    const int h = c.at("height"), w = c.at("width");
    const int oh = c.at("out_height"), ow = c.at("out_width");
    const auto pixels = c.at("pixels").get<std::vector<std::uint8_t>>();
    const auto expected = c.at("resized").get<std::vector<std::uint8_t>>();
    const std::vector<std::uint8_t> got = resizeBilinearLikePillow(pixels, 3, h, w, oh, ow);
    ASSERT_EQ(got.size(), expected.size());
    int differing = 0;
    for (std::size_t i = 0; i < got.size(); ++i) differing += got[i] != expected[i];
    EXPECT_EQ(differing, 0) << h << "x" << w << " -> " << oh << "x" << ow;
  }
}

TEST(PillowBilinearResize, SameSizeIsACopyAndAFlatImageStaysFlat) {
  const std::vector<std::uint8_t> pixels = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(resizeBilinearLikePillow(pixels, 1, 2, 3, 2, 3), pixels);
  const std::vector<std::uint8_t> flat(3 * 7 * 5, 200);
  for (std::uint8_t v : resizeBilinearLikePillow(flat, 3, 7, 5, 19, 2)) EXPECT_EQ(v, 200);
}

}  // namespace
}  // namespace ascope
