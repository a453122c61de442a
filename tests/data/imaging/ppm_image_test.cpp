#include "engine/imaging/ppm_image.h"

#include <gtest/gtest.h>

#include "engine/datasets/image_folder_reader.h"
#include "tests/data/fixture_folder.h"

namespace ascope {
namespace {

using testing::FixtureFolder;

std::string ppm(const std::string& header, const std::string& pixels) {
  return header + pixels;
}

TEST(PpmImage, DecodesHeaderWithCommentsAndPixels) {
  // 2x1: a red and a blue pixel; a comment between the fields as netpbm allows.
  const std::string bytes =
      ppm("P6\n# made by hand\n2 1\n255\n", std::string("\xff\x00\x00\x00\x00\xff", 6));
  Expected<InterleavedRgbImage> image = decodePpm(bytes, "two.ppm");
  ASSERT_TRUE(image.ok()) << image.error();
  EXPECT_EQ(image->width, 2);
  EXPECT_EQ(image->height, 1);
  EXPECT_EQ(image->rgb, (std::vector<std::uint8_t>{255, 0, 0, 0, 0, 255}));
}

TEST(PpmImage, ScalesSmallerMaxvalToFullRange) {
  Expected<InterleavedRgbImage> image =
      decodePpm(ppm("P6 1 1 15 ", std::string("\x0f\x00\x07", 3)), "m.ppm");
  ASSERT_TRUE(image.ok()) << image.error();
  EXPECT_EQ(image->rgb, (std::vector<std::uint8_t>{255, 0, 119}));
}

TEST(PpmImage, BadFilesAreNamedWithTheProblem) {
  auto error = [](const std::string& bytes) {
    Expected<InterleavedRgbImage> image = decodePpm(bytes, "bad.ppm");
    return image.ok() ? std::string("<ok>") : image.error();
  };
  EXPECT_EQ(error("P3\n1 1\n255\n0 0 0"), "bad.ppm: not a binary PPM (no P6 magic)");
  EXPECT_EQ(error("P6\n1\n"), "bad.ppm: malformed PPM header (expected P6 width height maxval)");
  EXPECT_EQ(error("P6\n0 4\n255\n"), "bad.ppm: PPM size 0x4 is outside 1..16384");
  EXPECT_EQ(error("P6\n1 1\n65535\n......"),
            "bad.ppm: PPM maxval 65535 is not supported (8-bit images only, maxval 1..255)");
  EXPECT_EQ(error("P6\n2 2\n255\nabc"), "bad.ppm: PPM pixel data is cut short: 3 of 12 bytes");
  EXPECT_EQ(error(""), "bad.ppm: not a binary PPM (no P6 magic)");
}

TEST(PpmImage, PlanarResizeKeepsSolidColoursAndChannelOrder) {
  InterleavedRgbImage image{4, 2, {}};
  for (int i = 0; i < 8; ++i) image.rgb.insert(image.rgb.end(), {10, 20, 30});
  const std::vector<std::uint8_t> planar = toPlanar(image, 3, 3);
  ASSERT_EQ(planar.size(), 27u);
  for (int i = 0; i < 9; ++i) {
    EXPECT_EQ(planar[i], 10);
    EXPECT_EQ(planar[9 + i], 20);
    EXPECT_EQ(planar[18 + i], 30);
  }
  // Left half black, right half white: the left output column stays dark, the right one light.
  InterleavedRgbImage halves{4, 1, {0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255}};
  const std::vector<std::uint8_t> two = toPlanar(halves, 1, 2);
  EXPECT_EQ(two[0], 0);
  EXPECT_EQ(two[1], 255);
}

TEST(PpmImage, ImageFolderReaderDecodesPpmFilesInEveryBuild) {
  FixtureFolder folder;
  std::string pixels;
  for (int i = 0; i < 4; ++i) pixels += std::string("\xc8\x14\x00", 3);
  folder.write("red.ppm", ppm("P6\n2 2\n255\n", pixels));
  Expected<std::vector<std::uint8_t>> planar =
      ImageFolderReader::decode(folder.path("red.ppm"), 4, 4);
  ASSERT_TRUE(planar.ok()) << planar.error();
  ASSERT_EQ(planar->size(), 48u);
  EXPECT_EQ((*planar)[0], 200);
  EXPECT_EQ((*planar)[16], 20);
  EXPECT_EQ((*planar)[32], 0);

  folder.write("short.ppm", "P6\n2 2\n255\nxx");
  Expected<std::vector<std::uint8_t>> cut =
      ImageFolderReader::decode(folder.path("short.ppm"), 4, 4);
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.error().find("short.ppm: PPM pixel data is cut short"), std::string::npos)
      << cut.error();
  EXPECT_FALSE(ImageFolderReader::decode(folder.path("missing.ppm"), 4, 4).ok());
}

}  // namespace
}  // namespace ascope
