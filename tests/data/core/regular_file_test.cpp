// Readers of user-given files refuse FIFOs and devices before opening them (a FIFO without a
// writer blocks open() forever; /dev/zero used to read as "file is empty") and files over their
// size limit; the tail reader serves log.txt.
#include "engine/core/regular_file.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "engine/core/file_bytes.h"
#include "engine/core/json_file.h"
#include "engine/core/printable_text.h"
#include "engine/datasets/image_dataset_loader.h"
#include "engine/datasets/image_folder_reader.h"
#include "engine/datasets/imdb_csv_reader.h"
#include "engine/datasets/text_dataset_loader.h"
#include "engine/datasets/translation_dataset_loader.h"
#include "engine/text/words/imdb_word_tokenizer.h"
#include "tests/data/fifo_fixture.h"
#include "tests/data/fixture_folder.h"
#include "tests/support/test_files.h"

namespace ascope {
namespace {

using testing::contains;
using testing::Fifo;
using testing::FixtureFolder;

/// Runs `read`, which must refuse the FIFO at once (well before the fixture's unblocker).
template <class Read>
std::string refusedQuickly(Read read) {
  const auto start = std::chrono::steady_clock::now();
  const auto result = read();
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_LT(took, std::chrono::milliseconds(1500)) << "the reader waited in open()";
  if (result.ok()) return "<read>";
  return result.error();
}

TEST(RegularFile, FifoIsRefusedWithoutOpeningIt) {
  FixtureFolder folder;
  Fifo fifo(folder.path("pipe"));
  ASSERT_TRUE(fifo.created());
  const std::string expected = fifo.path() + " is not a regular file (a FIFO)";
  EXPECT_EQ(requireRegularFile(fifo.path()).error(), expected);
  EXPECT_EQ(refusedQuickly([&] { return readRegularFile(fifo.path(), 1024); }), expected);
  EXPECT_EQ(refusedQuickly([&] { return readRegularFileTail(fifo.path(), 1024); }), expected);
  EXPECT_EQ(refusedQuickly([&] { return readFileBytes(fifo.path()); }), expected);
}

TEST(RegularFile, DevicesAndFoldersAreNamedForWhatTheyAre) {
  EXPECT_EQ(readFileBytes("/dev/zero").error(),
            "/dev/zero is not a regular file (a character device)");
  FixtureFolder folder;
  EXPECT_EQ(readFileBytes(folder.path()).error(), folder.path() + ": is a folder, not a file");
  EXPECT_TRUE(contains(readFileBytes(folder.path("nope")).error(), "nope: cannot open"));
}

TEST(RegularFile, SizeLimitIsCheckedBeforeReading) {
  FixtureFolder folder;
  const std::string path = folder.write("big.bin", std::string(3000, 'x'));
  EXPECT_EQ(readRegularFile(path, 2048).error(),
            path + " is 2.9 KiB, over the 2 KiB limit for this file");
  Expected<std::string> whole = readRegularFile(path, 3000);
  ASSERT_TRUE(whole.ok()) << whole.error();
  EXPECT_EQ(whole->size(), 3000u);
  EXPECT_EQ(describeByteCount(512ull << 20), "512 MiB");
  EXPECT_EQ(describeByteCount(1), "1 byte");
}

TEST(RegularFile, TailReadsOnlyTheEnd) {
  FixtureFolder folder;
  const std::string path = folder.write("log.txt", "aaa\nbbb\nccc\n");
  Expected<FileTail> tail = readRegularFileTail(path, 5);
  ASSERT_TRUE(tail.ok()) << tail.error();
  EXPECT_EQ(tail->bytes, "\nccc\n");
  EXPECT_TRUE(tail->cut);
  Expected<FileTail> all = readRegularFileTail(path, 100);
  ASSERT_TRUE(all.ok()) << all.error();
  EXPECT_EQ(all->bytes, "aaa\nbbb\nccc\n");
  EXPECT_FALSE(all->cut);
}

TEST(RegularFile, DatasetLoadersRefuseAFifoAsData) {
  FixtureFolder folder;
  Fifo csv(folder.path("reviews.csv"));
  ASSERT_TRUE(csv.created());
  const std::string expected = csv.path() + " is not a regular file (a FIFO)";
  EXPECT_EQ(refusedQuickly([&] { return loadTextDataset(csv.path()); }), expected);
  EXPECT_EQ(refusedQuickly([&] { return ImdbCsvReader::read(csv.path()); }), expected);
  Fifo pairs(folder.path("pairs.tsv"));
  EXPECT_TRUE(contains(refusedQuickly([&] { return loadTranslationDataset(pairs.path()); }),
                       "pairs.tsv is not a regular file (a FIFO)"));
  EXPECT_EQ(readFileBytes("/dev/zero").error(),
            "/dev/zero is not a regular file (a character device)");
  EXPECT_TRUE(contains(loadTextDataset("/dev/zero").error(), "(a character device)"));
}

TEST(RegularFile, ImageDecodeRefusesAFifoAndADevice) {
  FixtureFolder folder;
  Fifo image(folder.path("cat.png"));
  ASSERT_TRUE(image.created());
  EXPECT_EQ(refusedQuickly([&] { return ImageFolderReader::decode(image.path(), 8, 8); }),
            image.path() + " is not a regular file (a FIFO)");
  EXPECT_EQ(ImageFolderReader::decode("/dev/zero", 8, 8).error(),
            "/dev/zero is not a regular file (a character device)");
}

TEST(RegularFile, TokenizerFilesRefuseAFifo) {
  FixtureFolder folder;
  Fifo tokenizer(folder.path("tokenizer.json"));
  ASSERT_TRUE(tokenizer.created());
  EXPECT_EQ(refusedQuickly([&] { return ImdbWordTokenizer::load(tokenizer.path()); }),
            tokenizer.path() + " is not a regular file (a FIFO)");
  EXPECT_EQ(refusedQuickly([&] { return readJsonFile(tokenizer.path()); }),
            tokenizer.path() + " is not a regular file (a FIFO)");
}

TEST(RegularFile, ALinksTargetIsQuotedThroughTheSanitiser) {
  // The target is the link's own bytes, chosen by whoever made the run folder.
  FixtureFolder folder;
  const std::string link = folder.path("log.txt");
  std::filesystem::create_symlink("\x1b]0;owned\x07\xff", link);
  const Status s = refuseSymbolicLink(link);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.error(), link + " is a symbolic link (to \\x1B]0;owned\\x07\\xFF)"))
      << s.error();
  EXPECT_TRUE(isPrintableText(s.error(), s.error().size())) << s.error();
}

}  // namespace
}  // namespace ascope
