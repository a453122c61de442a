// The zip walk that stands in for the CRC checks LibTorch's reader leaves out (flipped
// bytes in a checkpoint's weight record loaded silently). Archives are built here record by record;
// the checks on real torch archives are in tests/engine/train/checkpoint_test.cpp.
#include "engine/core/zip_checksums.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tests/data/fixture_folder.h"
#include "tests/support/test_files.h"

namespace ascope {
namespace {

using testing::contains;
using testing::FixtureFolder;

void put16(std::string& out, std::uint32_t v) {
  out.push_back(static_cast<char>(v & 0xFF));
  out.push_back(static_cast<char>((v >> 8) & 0xFF));
}
void put32(std::string& out, std::uint32_t v) {
  put16(out, v & 0xFFFF);
  put16(out, v >> 16);
}
void put64(std::string& out, std::uint64_t v) {
  put32(out, static_cast<std::uint32_t>(v));
  put32(out, static_cast<std::uint32_t>(v >> 32));
}

struct Record {
  std::string name;
  std::string data;
  std::uint16_t method = 0;
};

/// A zip archive of stored records as torch.save lays them out; `zip64` writes the end records
/// that archives over 65535 records or 4 GiB need.
std::string zipArchive(const std::vector<Record>& records, bool zip64 = false) {
  std::string out, directory;
  for (const Record& r : records) {
    const auto offset = static_cast<std::uint32_t>(out.size());
    const std::uint32_t crc = crc32Update(0, r.data.data(), r.data.size());
    const auto size = static_cast<std::uint32_t>(r.data.size());
    put32(out, 0x04034b50);
    put16(out, 20), put16(out, 0), put16(out, r.method), put16(out, 0), put16(out, 0);
    put32(out, crc), put32(out, size), put32(out, size);
    put16(out, static_cast<std::uint32_t>(r.name.size())), put16(out, 0);
    out += r.name + r.data;
    put32(directory, 0x02014b50);
    put16(directory, 20), put16(directory, 20), put16(directory, 0), put16(directory, r.method);
    put16(directory, 0), put16(directory, 0);
    put32(directory, crc), put32(directory, size), put32(directory, size);
    put16(directory, static_cast<std::uint32_t>(r.name.size()));
    put16(directory, 0), put16(directory, 0), put16(directory, 0), put16(directory, 0);
    put32(directory, 0), put32(directory, offset);
    directory += r.name;
  }
  const auto directory_offset = static_cast<std::uint32_t>(out.size());
  out += directory;
  if (zip64) {
    const auto zip64_end = static_cast<std::uint64_t>(out.size());
    put32(out, 0x06064b50);
    put64(out, 44), put16(out, 45), put16(out, 45), put32(out, 0), put32(out, 0);
    put64(out, records.size()), put64(out, records.size());
    put64(out, directory.size()), put64(out, directory_offset);
    put32(out, 0x07064b50);
    put32(out, 0), put64(out, zip64_end), put32(out, 1);
  }
  put32(out, 0x06054b50);
  put16(out, 0), put16(out, 0);
  put16(out, zip64 ? 0xFFFF : static_cast<std::uint32_t>(records.size()));
  put16(out, zip64 ? 0xFFFF : static_cast<std::uint32_t>(records.size()));
  put32(out, zip64 ? 0xFFFFFFFF : static_cast<std::uint32_t>(directory.size()));
  put32(out, zip64 ? 0xFFFFFFFF : directory_offset);
  put16(out, 0);
  return out;
}

const std::vector<Record> kRecords{{"archive/data.pkl", std::string(300, 'p')},
                                   {"archive/data/0", std::string(4096, '\x3f')},
                                   {"archive/version", "3\n"}};

TEST(ZipChecksums, Crc32IsTheZipOne) {
  const std::string check = "123456789";
  EXPECT_EQ(crc32Update(0, check.data(), check.size()), 0xCBF43926u);  // the standard check value
  // In pieces (the walk reads a record a MiB at a time) as in one go.
  const std::string text(10007, 'z');
  const std::uint32_t whole = crc32Update(0, text.data(), text.size());
  std::uint32_t pieces = crc32Update(0, text.data(), 3);
  pieces = crc32Update(pieces, text.data() + 3, text.size() - 3);
  EXPECT_EQ(pieces, whole);
  EXPECT_EQ(crc32Update(0, nullptr, 0), 0u);
}

TEST(ZipChecksums, ASoundArchivePassesInMemoryAndOnDisk) {
  FixtureFolder folder;
  for (const bool zip64 : {false, true}) {
    const std::string bytes = zipArchive(kRecords, zip64);
    const Status in_memory = verifyZipChecksums(bytes, "sound.pt");
    EXPECT_TRUE(in_memory.ok()) << in_memory.error();
    const std::string path = folder.write(zip64 ? "sound64.pt" : "sound.pt", bytes);
    const Status on_disk = verifyZipChecksums(path);
    EXPECT_TRUE(on_disk.ok()) << on_disk.error();
  }
}

TEST(ZipChecksums, AFlippedByteNamesTheRecord) {
  FixtureFolder folder;
  std::string bytes = zipArchive(kRecords);
  const std::size_t weight = bytes.find(std::string(64, '\x3f'));
  ASSERT_NE(weight, std::string::npos);
  bytes[weight + 100] = static_cast<char>(bytes[weight + 100] ^ 0x10);
  const std::string path = folder.write("last.pt", bytes);
  const Status s = verifyZipChecksums(path);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.error(), path + " is damaged: record \"archive/data/0\" fails its CRC-32"))
      << s.error();
}

TEST(ZipChecksums, AnArchiveCutShortOrPointingPastItsEndIsRefused) {
  const std::string bytes = zipArchive(kRecords);
  for (const std::size_t keep :
       {std::size_t{0}, std::size_t{10}, bytes.size() / 2, bytes.size() - 1}) {
    const Status s = verifyZipChecksums(std::string_view(bytes).substr(0, keep), "cut.pt");
    ASSERT_FALSE(s.ok()) << keep;
    EXPECT_TRUE(contains(s.error(), "cut.pt is not a complete zip archive")) << s.error();
  }
  // The directory says a record is larger than what follows its header.
  std::string lying = zipArchive({{"archive/data/0", "abcd"}});
  const std::size_t directory = lying.find("PK\x01\x02");
  ASSERT_NE(directory, std::string::npos);
  lying[directory + 20] = '\x7f';  // compressed size
  lying[directory + 24] = '\x7f';  // size
  const Status s = verifyZipChecksums(lying, "lying.pt");
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.error(), "\"archive/data/0\" runs past the end of the file")) << s.error();
}

TEST(ZipChecksums, CompressedTensorsAreNotTorchArchivesButCompressedCodeIs) {
  const Status s = verifyZipChecksums(zipArchive({{"archive/data/0", "abcd", 8}}), "zipped.bin");
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.error(), "\"archive/data/0\" is compressed (method 8)")) << s.error();
  // LibTorch deflates the TorchScript text it writes into every checkpoint beside the weights.
  const std::string code = zipArchive(
      {{"archive/code/__torch__.py", "x\x01y", 8}, {"archive/data/0", std::string(64, 'w')}});
  const Status with_code = verifyZipChecksums(code, "last.pt");
  EXPECT_TRUE(with_code.ok()) << with_code.error();
  EXPECT_FALSE(verifyZipChecksums(code.substr(0, code.size() / 2), "last.pt").ok());
}

TEST(ZipChecksums, WhatIsNotARegularFileIsRefusedByName) {
  FixtureFolder folder;
  const Status s = verifyZipChecksums(folder.makeFolder("checkpoints"));
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.error(), "is a folder, not a file")) << s.error();
}

}  // namespace
}  // namespace ascope
