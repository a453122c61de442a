// Image sizes come from the header before any decoder runs, and images over the limits are
// refused with the file and the size named: a 1 MB PNG announcing 20000 × 20000 pixels made
// `infer --image` take 1.35 GB.
#include "engine/imaging/image_header.h"

#include <gtest/gtest.h>

#include "engine/datasets/image_folder_reader.h"
#include "tests/data/fixture_folder.h"

#if defined(ATTENTIONSCOPE_WITH_OPENCV) && __has_include(<opencv2/imgcodecs.hpp>)
#define ASCOPE_IMAGE_FIXTURES 1
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#endif

namespace ascope {
namespace {

using testing::FixtureFolder;

std::string bigEndian32(std::uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
          static_cast<char>(v)};
}

/// The start of a PNG: signature and IHDR (8-bit RGB), then `tail` as if it were the rest.
std::string pngHeader(std::uint32_t width, std::uint32_t height, const std::string& tail = "") {
  return std::string("\x89PNG\r\n\x1a\n", 8) + bigEndian32(13) + "IHDR" + bigEndian32(width) +
         bigEndian32(height) + std::string("\x08\x02\x00\x00\x00", 5) + bigEndian32(0) + tail;
}

/// A JPEG with an APP0 segment before its baseline frame header.
std::string jpegHeader(std::uint16_t width, std::uint16_t height) {
  std::string bytes("\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00", 20);
  bytes += std::string("\xff\xc0\x00\x11\x08", 5);
  bytes += {static_cast<char>(height >> 8), static_cast<char>(height & 0xff),
            static_cast<char>(width >> 8), static_cast<char>(width & 0xff)};
  bytes += std::string("\x03\x01\x22\x00\x02\x11\x01\x03\x11\x01", 10);
  return bytes;
}

std::string sizeOf(const std::string& bytes) {
  Expected<ImageSize> size = readImageSize(bytes, "x");
  if (!size.ok()) return size.error();
  return std::string(size->format) + " " + std::to_string(size->width) + "x" +
         std::to_string(size->height);
}

TEST(ImageHeader, ReadsTheSizeOfEachFormat) {
  EXPECT_EQ(sizeOf(pngHeader(640, 480)), "PNG 640x480");
  EXPECT_EQ(sizeOf(jpegHeader(1024, 768)), "JPEG 1024x768");
  EXPECT_EQ(sizeOf("P6\n# comment\n33 22\n255\n"), "PPM 33x22");
  std::string bmp = "BM" + std::string(12, '\0') + std::string("\x28\x00\x00\x00", 4);
  bmp += std::string("\x20\x00\x00\x00\xf0\xff\xff\xff", 8);  // 32 wide, -16 high (top-down)
  EXPECT_EQ(sizeOf(bmp), "BMP 32x16");
  EXPECT_EQ(sizeOf(std::string("GIF89a\x10\x00\x08\x00", 10)), "GIF 16x8");
}

TEST(ImageHeader, BadHeadersAreNamed) {
  EXPECT_EQ(sizeOf("hello"), "x: is not a PNG, JPEG, BMP, GIF or binary PPM (P6) image");
  EXPECT_EQ(sizeOf(pngHeader(1, 1).substr(0, 20)), "x: PNG header is cut short");
  EXPECT_EQ(sizeOf(std::string("\xff\xd8\xff\xda\x00\x02", 6)),
            "x: JPEG has no frame header (SOF) before its image data");
  EXPECT_EQ(sizeOf(std::string("\xff\xd8\xff\xe0\x00\x10", 6)),
            "x: JPEG has no frame header (SOF) before its end");
  EXPECT_EQ(sizeOf("P6\n1\n"), "x: malformed PPM header (expected P6 width height maxval)");
}

TEST(ImageHeader, LimitsNameTheFileAndTheSize) {
  const auto check = [](const std::string& bytes) {
    Expected<ImageSize> size = checkImageHeader(bytes, "big.png");
    return size.ok() ? std::string("ok") : size.error();
  };
  EXPECT_EQ(check(pngHeader(20000, 20000)),
            "big.png: PNG image of 20000 × 20000 pixels is over the limit (16384 per side, "
            "67108864 pixels)");
  EXPECT_EQ(check(pngHeader(16384, 4096)), "ok");
  EXPECT_EQ(check(pngHeader(16384, 4097)),
            "big.png: PNG image of 16384 × 4097 pixels is over the limit (16384 per side, "
            "67108864 pixels)");
  EXPECT_EQ(check(pngHeader(0xffffffffu, 0xffffffffu)),
            "big.png: PNG image of 4294967295 × 4294967295 pixels is over the limit (16384 per "
            "side, 67108864 pixels)");
  EXPECT_EQ(check(jpegHeader(65535, 65535)),
            "big.png: JPEG image of 65535 × 65535 pixels is over the limit (16384 per side, "
            "67108864 pixels)");
  EXPECT_EQ(check(pngHeader(0, 5)), "big.png: PNG image of 0 × 5 pixels is empty");
}

TEST(ImageHeader, DecodeRefusesABombBeforeDecoding) {
  // The reported case: a PNG that announces 20000 × 20000 and then holds compressed zeros.
  FixtureFolder folder;
  const std::string path =
      folder.write("bomb.png", pngHeader(20000, 20000, std::string(1 << 20, '\0')));
  Expected<std::vector<std::uint8_t>> pixels = ImageFolderReader::decode(path, 32, 32);
  ASSERT_FALSE(pixels.ok());
  EXPECT_EQ(pixels.error(), path +
                                ": PNG image of 20000 × 20000 pixels is over the limit (16384 "
                                "per side, 67108864 pixels)");
  const std::string ppm = folder.write("huge.ppm", "P6 16384 16384 255\n");
  EXPECT_EQ(ImageFolderReader::decode(ppm, 32, 32).error(),
            ppm + ": PPM size 16384x16384 is over the limit of 67108864 pixels");
}

#ifdef ASCOPE_IMAGE_FIXTURES

TEST(ImageHeader, AgreesWithOpenCvOnRealFiles) {
  FixtureFolder folder;
  const cv::Mat image(37, 53, CV_8UC3, cv::Scalar(10, 20, 30));
  for (const char* extension : {".png", ".jpg", ".bmp"}) {
    std::vector<std::uint8_t> encoded;
    ASSERT_TRUE(cv::imencode(extension, image, encoded));
    const std::string bytes(encoded.begin(), encoded.end());
    Expected<ImageSize> size = checkImageHeader(bytes, extension);
    ASSERT_TRUE(size.ok()) << size.error();
    EXPECT_EQ(size->width, 53u) << extension;
    EXPECT_EQ(size->height, 37u) << extension;
    // And decoding from the bytes read (no second open) still works.
    const std::string path = folder.write(std::string("img") + extension, bytes);
    Expected<std::vector<std::uint8_t>> pixels = ImageFolderReader::decode(path, 4, 4);
    ASSERT_TRUE(pixels.ok()) << pixels.error();
    EXPECT_EQ(pixels->size(), 48u);
    EXPECT_NEAR((*pixels)[0], 30, 2) << extension;  // R plane: OpenCV's BGR turned around
  }
}

TEST(ImageHeader, ImageFolderSkipsBombsAndCountsThem) {
  FixtureFolder folder;
  for (int i = 0; i < 3; ++i) {
    folder.write("cat/" + std::to_string(i) + ".png", "");
    ASSERT_TRUE(cv::imwrite(folder.path("cat/" + std::to_string(i) + ".png"),
                            cv::Mat(8, 8, CV_8UC3, cv::Scalar(1, 2, 3))));
  }
  folder.write("cat/bomb.png", pngHeader(20000, 20000, std::string(4096, '\0')));
  ImageLoadOptions options;
  options.height = options.width = 8;
  options.train_fraction = 1.0;
  auto loaded = ImageFolderReader::read(folder.path(), options);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->dataset.train.size() + loaded->dataset.test.size(), 3u);
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_NE(loaded->warnings[0].find("1 images skipped for being over 16384 pixels per side or "
                                     "67108864 pixels (cat/bomb.png)"),
            std::string::npos)
      << loaded->warnings[0];
}

#endif

}  // namespace
}  // namespace ascope
