#include "engine/datasets/cifar10_binary_reader.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "engine/datasets/image_dataset_loader.h"
#include "tests/data/fixture_folder.h"

namespace ascope {
namespace {

using testing::FixtureFolder;
constexpr std::size_t kRecord = Cifar10BinaryReader::kRecordBytes;

/// Record `index` of batch `batch`: label (batch + index) % 10, pixel i = (batch*31 + index*7 + i)
/// % 256.
std::string makeRecord(int batch, int index) {
  std::string record(kRecord, '\0');
  record[0] = static_cast<char>((batch + index) % 10);
  for (std::size_t i = 0; i < Cifar10BinaryReader::kPixelBytes; ++i) {
    record[1 + i] = static_cast<char>(
        (static_cast<std::size_t>(batch) * 31 + static_cast<std::size_t>(index) * 7 + i) % 256);
  }
  return record;
}

std::string makeBatch(int batch, int records) {
  std::string bytes;
  for (int i = 0; i < records; ++i) bytes += makeRecord(batch, i);
  return bytes;
}

const char* const kMeta =
    "airplane\r\nautomobile\r\nbird\r\ncat\r\ndeer\r\ndog\r\nfrog\r\nhorse\r\nship\r\ntruck\r\n\r"
    "\n";

/// A complete cifar-10-batches-bin/ with 3 records per training batch and 4 in the test batch.
std::string writeCifar(const FixtureFolder& folder) {
  for (int b = 1; b <= 5; ++b) {
    folder.write("cifar-10-batches-bin/data_batch_" + std::to_string(b) + ".bin", makeBatch(b, 3));
  }
  folder.write("cifar-10-batches-bin/test_batch.bin", makeBatch(0, 4));
  folder.write("cifar-10-batches-bin/batches.meta.txt", kMeta);
  return folder.path("cifar-10-batches-bin");
}

std::vector<std::uint8_t> pixelsOf(int batch, int index) {
  const std::string record = makeRecord(batch, index);
  return {record.begin() + 1, record.end()};
}

TEST(Cifar10BinaryReader, ReadsAllBatchesFromTheFolderOrItsParent) {
  FixtureFolder folder;
  const std::string batches = writeCifar(folder);
  for (const std::string& path : {batches, folder.path()}) {
    auto loaded = Cifar10BinaryReader::read(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    const ImageDataset& dataset = loaded->dataset;
    EXPECT_TRUE(loaded->warnings.empty());
    ASSERT_EQ(dataset.class_names.size(), 10u);
    EXPECT_EQ(dataset.class_names.front(), "airplane");
    EXPECT_EQ(dataset.class_names.back(), "truck");
    EXPECT_EQ(dataset.height, 32);
    EXPECT_EQ(dataset.width, 32);
    ASSERT_EQ(dataset.train.size(), 15u);
    ASSERT_EQ(dataset.test.size(), 4u);
    // First record of data_batch_1 and last of data_batch_5, byte for byte.
    EXPECT_EQ(dataset.train.front().label, 1);
    EXPECT_EQ(dataset.train.front().pixels, pixelsOf(1, 0));
    EXPECT_EQ(dataset.train.back().label, (5 + 2) % 10);
    EXPECT_EQ(dataset.train.back().pixels, pixelsOf(5, 2));
    EXPECT_EQ(dataset.test.back().label, 3);
    EXPECT_EQ(dataset.test.back().pixels, pixelsOf(0, 3));
  }
}

TEST(Cifar10BinaryReader, PixelsKeepThePlanarRgbLayout) {
  std::string record(kRecord, '\0');
  record[0] = 9;
  record[1] = 'R';                        // red plane, (0, 0)
  record[1 + 1024] = 'G';                 // green plane, (0, 0)
  record[1 + 2048 + 32 * 31 + 31] = 'B';  // blue plane, (31, 31)
  auto samples = Cifar10BinaryReader::parseBatch(record, "one.bin");
  ASSERT_TRUE(samples.ok()) << samples.error();
  ASSERT_EQ(samples->size(), 1u);
  EXPECT_EQ((*samples)[0].label, 9);
  EXPECT_EQ((*samples)[0].pixels[0], 'R');
  EXPECT_EQ((*samples)[0].pixels[1024], 'G');
  EXPECT_EQ((*samples)[0].pixels[3071], 'B');
}

TEST(Cifar10BinaryReader, WrongSizeNamesTheFileAndItsSize) {
  FixtureFolder folder;
  const std::string batches = writeCifar(folder);
  folder.write("cifar-10-batches-bin/data_batch_3.bin", makeBatch(3, 2) + "extra");
  auto loaded = Cifar10BinaryReader::read(batches);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().find("data_batch_3.bin"), std::string::npos) << loaded.error();
  EXPECT_NE(loaded.error().find(std::to_string(2 * kRecord + 5)), std::string::npos)
      << loaded.error();
}

TEST(Cifar10BinaryReader, LabelAboveNineNamesTheFileAndRecord) {
  FixtureFolder folder;
  const std::string batches = writeCifar(folder);
  std::string bytes = makeBatch(0, 4);
  bytes[2 * kRecord] = 10;
  folder.write("cifar-10-batches-bin/test_batch.bin", bytes);
  auto loaded = Cifar10BinaryReader::read(batches);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().find("test_batch.bin: record 2 has label 10"), std::string::npos)
      << loaded.error();
}

TEST(Cifar10BinaryReader, MissingFilesAreAllListed) {
  FixtureFolder folder;
  const std::string batches = writeCifar(folder);
  std::filesystem::remove(folder.path("cifar-10-batches-bin/data_batch_2.bin"));
  std::filesystem::remove(folder.path("cifar-10-batches-bin/batches.meta.txt"));
  auto loaded = Cifar10BinaryReader::read(batches);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().find("missing data_batch_2.bin, batches.meta.txt"), std::string::npos)
      << loaded.error();
}

TEST(Cifar10BinaryReader, EmptyBatchAndBadMetaStopTheLoad) {
  FixtureFolder folder;
  const std::string batches = writeCifar(folder);
  folder.write("cifar-10-batches-bin/data_batch_4.bin", "");
  auto empty = Cifar10BinaryReader::read(batches);
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.error().find("data_batch_4.bin: file is empty"), std::string::npos)
      << empty.error();

  writeCifar(folder);
  folder.write("cifar-10-batches-bin/batches.meta.txt", "cat\ndog\n");
  auto meta = Cifar10BinaryReader::read(batches);
  ASSERT_FALSE(meta.ok());
  EXPECT_NE(meta.error().find("batches.meta.txt: expected 10 class names"), std::string::npos)
      << meta.error();
}

TEST(Cifar10BinaryReader, LoadImageDatasetDetectsCifar) {
  FixtureFolder folder;
  writeCifar(folder);
  auto loaded = loadImageDataset(folder.path());
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->dataset.train.size(), 15u);

  auto missing = loadImageDataset(folder.path("nowhere"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("does not exist"), std::string::npos);
}

}  // namespace
}  // namespace ascope
