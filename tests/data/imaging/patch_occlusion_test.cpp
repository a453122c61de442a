#include "engine/imaging/patch_occlusion.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ascope {
namespace {

/// A side × side image whose bytes are all different from the fill (none is 7).
ImageBuffer patternImage(int side) {
  ImageBuffer image{side, side,
                    std::vector<std::uint8_t>(static_cast<std::size_t>(3 * side * side))};
  for (std::size_t i = 0; i < image.pixels.size(); ++i) {
    image.pixels[i] = static_cast<std::uint8_t>(100 + i % 100);
  }
  return image;
}

TEST(PatchOcclusion, FillsOnlyThePatchInEveryChannel) {
  const PatchGrid grid{8, 4, {7, 8, 9}};  // 2 × 2 patches of 4 × 4
  const ImageBuffer image = patternImage(8);
  Expected<ImageBuffer> occluded = occludePatch(image, grid, 1);  // top right
  ASSERT_TRUE(occluded.ok()) << occluded.error();
  ASSERT_EQ(occluded->pixels.size(), image.pixels.size());
  for (int c = 0; c < 3; ++c) {
    for (int y = 0; y < 8; ++y) {
      for (int x = 0; x < 8; ++x) {
        const std::size_t i = static_cast<std::size_t>(c * 64 + y * 8 + x);
        const bool inside = y < 4 && x >= 4;
        EXPECT_EQ(occluded->pixels[i],
                  inside ? grid.neutral_rgb[static_cast<std::size_t>(c)] : image.pixels[i])
            << "channel " << c << " at " << x << "," << y;
      }
    }
  }
}

TEST(PatchOcclusion, APatchOutsideTheGridNamesTheRange) {
  const PatchGrid grid{8, 4, {0, 0, 0}};
  for (int patch : {4, -2}) {
    Expected<ImageBuffer> occluded = occludePatch(patternImage(8), grid, patch);
    ASSERT_FALSE(occluded.ok());
    EXPECT_EQ(occluded.error(), "occluded patch " + std::to_string(patch) +
                                    " is out of range: the model's 8×8 input has 4 patches of "
                                    "4×4 pixels, numbered 0 to 3");
  }
  Expected<ImageBuffer> no_grid = occludePatch(patternImage(8), PatchGrid{}, 0);
  ASSERT_FALSE(no_grid.ok());
  EXPECT_EQ(no_grid.error(), "occluded patch 0: the model has no patches");
}

TEST(PatchOcclusion, AnImageOfAnotherSizeIsResizedToTheModelsInputFirst) {
  const PatchGrid grid{4, 2, {1, 2, 3}};
  Expected<ImageBuffer> occluded = occludePatch(patternImage(8), grid, 3);  // bottom right
  ASSERT_TRUE(occluded.ok()) << occluded.error();
  EXPECT_EQ(occluded->width, 4);
  EXPECT_EQ(occluded->height, 4);
  ASSERT_EQ(occluded->pixels.size(), 48u);
  EXPECT_EQ(occluded->pixels[15], 1);       // R at (3, 3)
  EXPECT_EQ(occluded->pixels[16 + 10], 2);  // G at (2, 2)
  EXPECT_NE(occluded->pixels[0], 1);

  Expected<ImageBuffer> torn = occludePatch(ImageBuffer{8, 8, {1, 2, 3}}, grid, 0);
  ASSERT_FALSE(torn.ok());
  EXPECT_EQ(torn.error(), "the image must be channel-planar RGB, 8×8 with 3 bytes is not");
}

TEST(PatchOcclusion, TheNeutralByteIsTheMeanInBytes) {
  EXPECT_EQ(neutralByte(0.5, 1.0 / 255.0), 128);    // 127.5 rounds up
  EXPECT_EQ(neutralByte(0.485, 1.0 / 255.0), 124);  // ImageNet's red mean
  EXPECT_EQ(neutralByte(0.0, 1.0 / 255.0), 0);
  EXPECT_EQ(neutralByte(2.0, 1.0 / 255.0), 255);  // clamped
}

}  // namespace
}  // namespace ascope
