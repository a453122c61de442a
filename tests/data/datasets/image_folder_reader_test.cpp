#include "engine/datasets/image_folder_reader.h"

#include <gtest/gtest.h>

#include "engine/datasets/image_dataset_loader.h"
#include "tests/data/fixture_folder.h"

// The fixtures are written with OpenCV, so the tests need its headers as well as the decoder.
#if defined(ATTENTIONSCOPE_WITH_OPENCV) && __has_include(<opencv2/imgcodecs.hpp>)
#define ASCOPE_IMAGE_FIXTURES 1
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#endif

namespace ascope {
namespace {

using testing::FixtureFolder;

#ifdef ASCOPE_IMAGE_FIXTURES

/// A solid image in BGR order, as OpenCV writes it.
void writeSolid(const FixtureFolder& folder, const std::string& relative, int side, cv::Vec3b bgr) {
  folder.write(relative, "");  // creates the folders
  ASSERT_TRUE(cv::imwrite(folder.path(relative),
                          cv::Mat(side, side, CV_8UC3, cv::Scalar(bgr[0], bgr[1], bgr[2]))));
}

/// "cat" and "dog" with 10 solid 16x16 images each; cat images are reddish, dog ones bluish.
void writeClasses(const FixtureFolder& folder, const std::string& prefix, int per_class) {
  for (int i = 0; i < per_class; ++i) {
    const auto v = static_cast<unsigned char>(i);
    writeSolid(folder, prefix + "cat/" + std::to_string(i) + ".png", 16, cv::Vec3b(v, 20, 200));
    writeSolid(folder, prefix + "dog/" + std::to_string(i) + ".PNG", 16, cv::Vec3b(200, 20, v));
  }
}

TEST(ImageFolderReader, ReadsClassFoldersWithASeededSplitAndSkipsBadImages) {
  FixtureFolder folder;
  writeClasses(folder, "", 10);
  folder.write("cat/broken.png", "\x89PNG\r\n\x1a\nthis is not a png");
  folder.write("dog/notes.txt", "ignored: not an image name");
  folder.makeFolder(".thumbnails");

  ImageLoadOptions options;
  options.height = 8;
  options.width = 8;
  auto loaded = ImageFolderReader::read(folder.path(), options);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  const ImageDataset& dataset = loaded->dataset;
  EXPECT_EQ(dataset.class_names, (std::vector<std::string>{"cat", "dog"}));
  EXPECT_EQ(dataset.height, 8);
  EXPECT_EQ(dataset.width, 8);
  EXPECT_EQ(dataset.train.size(), 18u) << "int(0.9 * 20)";
  EXPECT_EQ(dataset.test.size(), 2u);
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_NE(loaded->warnings[0].find("1 images skipped because they could not be decoded"),
            std::string::npos)
      << loaded->warnings[0];
  EXPECT_NE(loaded->warnings[0].find("cat/broken.png"), std::string::npos) << loaded->warnings[0];

  for (const auto* split : {&dataset.train, &dataset.test}) {
    for (const ImageSample& sample : *split) {
      ASSERT_EQ(sample.pixels.size(), 3u * 8 * 8);
      // Solid colours survive the resize exactly. Cats are red (R plane first), dogs blue.
      const std::size_t probe = sample.label == 0 ? 0 : 128 + 63;
      EXPECT_EQ(sample.pixels[probe], 200);
      EXPECT_EQ(sample.pixels[64], 20);
    }
  }
  auto again = ImageFolderReader::read(folder.path(), options);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->dataset.test.front().pixels, dataset.test.front().pixels)
      << "same seed, same split";
}

TEST(ImageFolderReader, DecodesToPlanarRgbPixelForPixel) {
  FixtureFolder folder;
  cv::Mat image(4, 4, CV_8UC3);
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      image.at<cv::Vec3b>(y, x) =
          cv::Vec3b(static_cast<unsigned char>(10 * x), static_cast<unsigned char>(10 * y),
                    static_cast<unsigned char>(100 + x + 4 * y));
    }
  }
  const std::string file = folder.write("grid.png", "");
  ASSERT_TRUE(cv::imwrite(file, image));
  auto pixels = ImageFolderReader::decode(file, 4, 4);
  ASSERT_TRUE(pixels.ok()) << pixels.error();
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      const auto at = static_cast<std::size_t>(4 * y + x);
      EXPECT_EQ((*pixels)[at], 100 + x + 4 * y);  // R
      EXPECT_EQ((*pixels)[16 + at], 10 * y);      // G
      EXPECT_EQ((*pixels)[32 + at], 10 * x);      // B
    }
  }
}

TEST(ImageFolderReader, UsesTrainAndTestSubfoldersAndJpeg) {
  FixtureFolder folder;
  writeClasses(folder, "train/", 3);
  writeClasses(folder, "test/", 2);
  writeSolid(folder, "test/dog/extra.jpg", 40, cv::Vec3b(0, 0, 0));
  auto loaded = loadImageDataset(folder.path());
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->dataset.class_names, (std::vector<std::string>{"cat", "dog"}));
  ASSERT_EQ(loaded->dataset.train.size(), 6u);
  ASSERT_EQ(loaded->dataset.test.size(), 5u);
  EXPECT_EQ(loaded->dataset.train.front().label, 0);
  EXPECT_EQ(loaded->dataset.train.back().label, 1);
  EXPECT_EQ(loaded->dataset.test.back().pixels.size(), 3u * 32 * 32) << "default size is 32x32";
}

TEST(ImageFolderReader, BadLayoutsStopTheLoad) {
  FixtureFolder folder;
  writeClasses(folder, "train/", 1);
  writeClasses(folder, "test/", 1);
  writeSolid(folder, "test/bird/0.png", 8, cv::Vec3b(1, 2, 3));
  auto unknown_class = ImageFolderReader::read(folder.path());
  ASSERT_FALSE(unknown_class.ok());
  EXPECT_NE(unknown_class.error().find("class \"bird\" is not among the classes in train/"),
            std::string::npos)
      << unknown_class.error();

  FixtureFolder flat;
  flat.write("a.png", "not even a folder per class");
  auto no_classes = ImageFolderReader::read(flat.path());
  ASSERT_FALSE(no_classes.ok());
  EXPECT_NE(no_classes.error().find("no class subfolders"), std::string::npos);

  FixtureFolder undecodable;
  undecodable.write("cat/a.png", "garbage");
  auto nothing = ImageFolderReader::read(undecodable.path());
  ASSERT_FALSE(nothing.ok());
  EXPECT_NE(nothing.error().find("no image could be read"), std::string::npos) << nothing.error();
  EXPECT_NE(nothing.error().find("cat/a.png"), std::string::npos) << nothing.error();

  ImageLoadOptions huge;
  huge.width = 100000;
  EXPECT_FALSE(ImageFolderReader::read(folder.path(), huge).ok());
}

TEST(ImageFolderReader, AClassFolderNameThatIsNotUtf8IsRefusedByName) {
  // Class names go into classes.json: such a name failed later, in the JSON writer, with
  // "[json.exception.type_error.316] invalid UTF-8 byte".
  FixtureFolder folder;
  writeClasses(folder, "", 1);
  writeSolid(folder, "caf\xe9/0.png", 16, cv::Vec3b(1, 2, 3));
  auto loaded = ImageFolderReader::read(folder.path());
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error(),
            folder.path() +
                ": the name of class folder \"caf\xef\xbf\xbd\" holds bytes that are "
                "not UTF-8 text (shown as \xef\xbf\xbd): class names are kept in "
                "classes.json, which holds UTF-8 only; rename the folder");
}

TEST(ImageFolderReader, DecodesAtTheImagesOwnSize) {
  FixtureFolder folder;
  folder.write("wide.png", "");
  ASSERT_TRUE(cv::imwrite(folder.path("wide.png"), cv::Mat(28, 40, CV_8UC3, cv::Scalar(9, 8, 7))));
  Expected<ImageBuffer> image = ImageFolderReader::decodeAtOwnSize(folder.path("wide.png"));
  ASSERT_TRUE(image.ok()) << image.error();
  EXPECT_EQ(image->width, 40);
  EXPECT_EQ(image->height, 28);
  ASSERT_EQ(image->pixels.size(), 3u * 40 * 28);
  EXPECT_EQ(image->pixels.front(), 7);  // R plane first
  EXPECT_EQ(image->pixels.back(), 9);   // B plane last
}

#else

TEST(ImageFolderReader, WithoutOpenCvSaysSoClearly) {
  FixtureFolder folder;
  folder.write("cat/0.png", "whatever");
  auto loaded = ImageFolderReader::read(folder.path());
  ASSERT_FALSE(loaded.ok());
#ifndef ATTENTIONSCOPE_WITH_OPENCV
  EXPECT_FALSE(ImageFolderReader::canDecode());
  EXPECT_NE(loaded.error().find("OpenCV"), std::string::npos) << loaded.error();
#endif
}

#endif

}  // namespace
}  // namespace ascope
