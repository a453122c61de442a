#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "engine/builtin/ppm_writer.h"
#include "engine/builtin/shape_images.h"
#include "engine/builtin/shape_masks.h"

namespace ascope {
namespace {

constexpr int kSize = 32;
constexpr int kPlane = kSize * kSize;
// Objects are saturated and bright, backgrounds dull: a pixel's chroma (max - min channel) tells
// them apart. Background chroma stays below ~80 even with noise, full object pixels above ~120.
constexpr int kObjectChroma = 100;

ImageDataset smallDataset(std::uint64_t seed, int train = 200, int test = 50) {
  ShapeImagesOptions options;
  options.train_count = train;
  options.test_count = test;
  options.seed = seed;
  return generateShapeImages(options);
}

/// Object mask of a 32 x 32 sample: true where the pixel is clearly part of the object.
std::vector<bool> objectMask(const ImageSample& sample) {
  std::vector<bool> mask(kPlane);
  for (int i = 0; i < kPlane; ++i) {
    const int r = sample.pixels[static_cast<std::size_t>(i)];
    const int g = sample.pixels[static_cast<std::size_t>(kPlane + i)];
    const int b = sample.pixels[static_cast<std::size_t>(2 * kPlane + i)];
    mask[static_cast<std::size_t>(i)] = std::max({r, g, b}) - std::min({r, g, b}) > kObjectChroma;
  }
  return mask;
}

struct Box {
  int left = kSize, top = kSize, right = -1, bottom = -1;
  int width() const { return right - left + 1; }
  int height() const { return bottom - top + 1; }
};

Box boundingBox(const std::vector<bool>& mask) {
  Box box;
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      if (!mask[static_cast<std::size_t>(y * kSize + x)]) continue;
      box.left = std::min(box.left, x);
      box.right = std::max(box.right, x);
      box.top = std::min(box.top, y);
      box.bottom = std::max(box.bottom, y);
    }
  }
  return box;
}

/// Object/background changes when scanning along rows (horizontal) or columns (vertical).
int transitions(const std::vector<bool>& mask, bool along_rows) {
  int count = 0;
  for (int a = 0; a < kSize; ++a) {
    for (int b = 1; b < kSize; ++b) {
      const int here = along_rows ? a * kSize + b : b * kSize + a;
      const int before = along_rows ? a * kSize + b - 1 : (b - 1) * kSize + a;
      if (mask[static_cast<std::size_t>(here)] != mask[static_cast<std::size_t>(before)]) ++count;
    }
  }
  return count;
}

TEST(BuiltinShapeImages, SameSeedSameBytesOtherSeedOtherBytes) {
  const ImageDataset a = smallDataset(5);
  const ImageDataset b = smallDataset(5);
  const ImageDataset c = smallDataset(6);
  ASSERT_EQ(a.train.size(), b.train.size());
  for (std::size_t i = 0; i < a.train.size(); ++i) {
    EXPECT_EQ(a.train[i].pixels, b.train[i].pixels);
    EXPECT_EQ(a.train[i].label, b.train[i].label);
  }
  int different = 0;
  for (std::size_t i = 0; i < a.train.size(); ++i) {
    if (a.train[i].pixels != c.train[i].pixels) ++different;
  }
  EXPECT_EQ(different, static_cast<int>(a.train.size()));
}

TEST(BuiltinShapeImages, DefaultsGiveBalancedClassesAndRightSizes) {
  const ImageDataset dataset = generateShapeImages(ShapeImagesOptions{});
  EXPECT_EQ(dataset.height, kSize);
  EXPECT_EQ(dataset.width, kSize);
  ASSERT_EQ(dataset.class_names.size(), 10u);
  EXPECT_EQ(std::set<std::string>(dataset.class_names.begin(), dataset.class_names.end()).size(),
            10u);
  EXPECT_EQ(dataset.class_names[0], "circle");
  EXPECT_EQ(dataset.class_names[6], "horizontal bars");
  ASSERT_EQ(dataset.train.size(), 5000u);
  ASSERT_EQ(dataset.test.size(), 1000u);
  std::vector<int> train_counts(10, 0);
  std::vector<int> test_counts(10, 0);
  for (const ImageSample& sample : dataset.train) {
    ASSERT_EQ(sample.pixels.size(), static_cast<std::size_t>(3 * kPlane));
    ASSERT_GE(sample.label, 0);
    ASSERT_LT(sample.label, 10);
    ++train_counts[static_cast<std::size_t>(sample.label)];
  }
  for (const ImageSample& sample : dataset.test)
    ++test_counts[static_cast<std::size_t>(sample.label)];
  for (int k = 0; k < 10; ++k) {
    EXPECT_EQ(train_counts[static_cast<std::size_t>(k)], 500);
    EXPECT_EQ(test_counts[static_cast<std::size_t>(k)], 100);
  }
  // Shuffled, not in label order.
  int label_runs = 0;
  for (std::size_t i = 1; i < dataset.train.size(); ++i) {
    if (dataset.train[i].label == (dataset.train[i - 1].label + 1) % 10) ++label_runs;
  }
  EXPECT_LT(label_runs, 1000);
}

TEST(BuiltinShapeImages, OtherImageSizesScale) {
  ShapeImagesOptions options;
  options.train_count = 10;
  options.test_count = 0;
  options.image_size = 48;
  const ImageDataset dataset = generateShapeImages(options);
  EXPECT_EQ(dataset.height, 48);
  EXPECT_EQ(dataset.train.front().pixels.size(), 3u * 48 * 48);
  EXPECT_TRUE(dataset.test.empty());
}

TEST(BuiltinShapeImages, EveryImageHasOneCompactObjectOnAQuietBackground) {
  const ImageDataset dataset = smallDataset(9, 500, 0);
  for (const ImageSample& sample : dataset.train) {
    const std::vector<bool> mask = objectMask(sample);
    const int pixels = static_cast<int>(std::count(mask.begin(), mask.end(), true));
    SCOPED_TRACE(dataset.class_names[static_cast<std::size_t>(sample.label)]);
    EXPECT_GE(pixels, 25);
    EXPECT_LE(pixels, kPlane / 2);
    const Box box = boundingBox(mask);
    // 12 to 22 px across, rotated by at most 12 degrees, plus anti-aliasing: never the whole image.
    EXPECT_GE(box.width(), 7);
    EXPECT_LE(box.width(), 26);
    EXPECT_LE(box.height(), 26);
  }
}

TEST(BuiltinShapeImages, ClassPatternsAreDetectable) {
  const ImageDataset dataset = smallDataset(13, 1000, 0);
  std::vector<double> along_rows(10, 0), along_columns(10, 0), hole(10, 0), count(10, 0);
  for (const ImageSample& sample : dataset.train) {
    const auto k = static_cast<std::size_t>(sample.label);
    const std::vector<bool> mask = objectMask(sample);
    const Box box = boundingBox(mask);
    // Per object row / column, so that object size does not matter.
    along_rows[k] += static_cast<double>(transitions(mask, true)) / box.height();
    along_columns[k] += static_cast<double>(transitions(mask, false)) / box.width();
    const int centre = ((box.top + box.bottom) / 2) * kSize + (box.left + box.right) / 2;
    hole[k] += mask[static_cast<std::size_t>(centre)] ? 0 : 1;
    count[k] += 1;
  }
  const auto bars = static_cast<std::size_t>(ShapeKind::kHorizontalBars);
  const auto columns = static_cast<std::size_t>(ShapeKind::kVerticalBars);
  const auto checker = static_cast<std::size_t>(ShapeKind::kChecker);
  const auto circle = static_cast<std::size_t>(ShapeKind::kCircle);
  const auto ring = static_cast<std::size_t>(ShapeKind::kRing);
  // Horizontal bars change colour going down (about 5.5 changes per column against 1.7 per row),
  // vertical bars going across, checkers both ways.
  EXPECT_GT(along_columns[bars], 2.0 * along_rows[bars]);
  EXPECT_GT(along_rows[columns], 2.0 * along_columns[columns]);
  // About 4 changes per checker row against 2 for any solid shape.
  EXPECT_GT(along_rows[checker], 1.6 * along_rows[circle]);
  EXPECT_GT(along_columns[checker], 1.6 * along_columns[circle]);
  // A ring is hollow in the middle, a circle is not.
  EXPECT_GT(hole[ring] / count[ring], 0.95);
  EXPECT_LT(hole[circle] / count[circle], 0.05);
}

TEST(BuiltinShapeImages, PpmWriterWritesAViewableFile) {
  const ImageDataset dataset = smallDataset(1, 12, 0);
  const std::string single = ::testing::TempDir() + "builtin_shape.ppm";
  ASSERT_TRUE(writePpm(single, dataset.train[0], kSize, kSize).ok());
  std::ifstream file(single, std::ios::binary);
  const std::string content((std::istreambuf_iterator<char>(file)),
                            std::istreambuf_iterator<char>());
  const std::string header = "P6\n32 32\n255\n";
  ASSERT_EQ(content.size(), header.size() + 3u * kPlane);
  EXPECT_EQ(content.substr(0, header.size()), header);
  // Interleaved: the first pixel's green byte comes from the green plane.
  EXPECT_EQ(static_cast<std::uint8_t>(content[header.size() + 1]), dataset.train[0].pixels[kPlane]);

  const std::string sheet = ::testing::TempDir() + "builtin_sheet.ppm";
  ASSERT_TRUE(writeContactSheetPpm(sheet, dataset.train, kSize, kSize, 5).ok());
  std::ifstream sheet_file(sheet, std::ios::binary);
  std::string magic;
  int width = 0, height = 0;
  sheet_file >> magic >> width >> height;
  EXPECT_EQ(magic, "P6");
  EXPECT_EQ(width, 5 * 33 - 1);
  EXPECT_EQ(height, 3 * 33 - 1);
  std::remove(single.c_str());
  std::remove(sheet.c_str());

  ImageSample wrong = dataset.train[0];
  wrong.pixels.pop_back();
  const Status status = writePpm(single, wrong, kSize, kSize);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().find("expected 3072"), std::string::npos);
}

}  // namespace
}  // namespace ascope
