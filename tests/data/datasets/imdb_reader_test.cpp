#include "engine/datasets/acl_imdb_reader.h"

#include <gtest/gtest.h>

#include "engine/datasets/text_dataset_loader.h"
#include "engine/text/unicode/utf8_repair.h"
#include "tests/data/fixture_folder.h"

namespace ascope {
namespace {

using testing::FixtureFolder;

/// An aclImdb tree in the layout of aclImdb_v1.tar.gz, 3 reviews per label folder.
void writeAclImdb(const FixtureFolder& folder) {
  for (const std::string split : {"train", "test"}) {
    for (const std::string label : {"pos", "neg"}) {
      const std::string base = "aclImdb/" + split + "/" + label + "/";
      // Ids 10, 2 and 0: the reader orders them numerically (0, 2, 10), not by name.
      folder.write(base + "10_9.txt", split + " " + label + " ten<br /><br />end");
      folder.write(base + "2_7.txt", split + " " + label + " two");
      folder.write(base + "0_8.txt", split + " " + label + " zero");
    }
  }
  folder.write("aclImdb/train/unsup/0_0.txt", "unlabelled, ignored");
  folder.write("aclImdb/train/urls_pos.txt", "http://ignored");
  folder.write("aclImdb/imdb.vocab", "the\nand\n");
}

TEST(AclImdbReader, ReadsTheTreeInAStableOrder) {
  FixtureFolder folder;
  writeAclImdb(folder);
  for (const std::string& path : {folder.path(), folder.path("aclImdb")}) {
    auto loaded = AclImdbReader::read(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    const TextDataset& dataset = loaded->dataset;
    EXPECT_TRUE(loaded->warnings.empty());
    ASSERT_EQ(dataset.train.size(), 6u);
    ASSERT_EQ(dataset.test.size(), 6u);
    EXPECT_EQ(dataset.train.front().text, "train neg zero");
    EXPECT_EQ(dataset.train.front().label, 0);
    EXPECT_EQ(dataset.train[1].text, "train neg two");
    EXPECT_EQ(dataset.train.back().text, "train pos ten  end") << "<br /> becomes a space";
    EXPECT_EQ(dataset.train.back().label, 1);
    EXPECT_EQ(dataset.test.back().text, "test pos ten  end");
  }
}

TEST(AclImdbReader, SkipsEmptyReviewsAndRepairsBytes) {
  FixtureFolder folder;
  writeAclImdb(folder);
  folder.write("aclImdb/train/pos/5_10.txt", "  \n");
  folder.write("aclImdb/test/neg/7_1.txt", "bad \xC3 byte");
  auto loaded = AclImdbReader::read(folder.path());
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->dataset.train.size(), 6u);
  EXPECT_EQ(loaded->dataset.test.size(), 7u);
  EXPECT_EQ(loaded->dataset.test[2].text, "bad " + std::string(kReplacementCharacter) + " byte");
  ASSERT_EQ(loaded->warnings.size(), 2u);
  EXPECT_NE(loaded->warnings[0].find("1 empty review files skipped (train/pos/5_10.txt)"),
            std::string::npos)
      << loaded->warnings[0];
  EXPECT_NE(
      loaded->warnings[1].find("1 invalid UTF-8 sequences replaced by U+FFFD (test/neg/7_1.txt)"),
      std::string::npos)
      << loaded->warnings[1];
}

TEST(AclImdbReader, MissingFoldersAreListed) {
  FixtureFolder folder;
  writeAclImdb(folder);
  std::filesystem::remove_all(folder.path("aclImdb/test/neg"));
  std::filesystem::remove_all(folder.path("aclImdb/train/pos"));
  auto loaded = AclImdbReader::read(folder.path());
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().find("missing train/pos, test/neg"), std::string::npos)
      << loaded.error();

  FixtureFolder empty_label;
  writeAclImdb(empty_label);
  std::filesystem::remove_all(empty_label.path("aclImdb/test/pos"));
  empty_label.makeFolder("aclImdb/test/pos");
  auto no_reviews = AclImdbReader::read(empty_label.path());
  ASSERT_FALSE(no_reviews.ok());
  EXPECT_NE(no_reviews.error().find("test/pos: no review .txt files"), std::string::npos)
      << no_reviews.error();
}

TEST(LoadTextDataset, DetectsTheTreeAndCsvLayouts) {
  FixtureFolder tree;
  writeAclImdb(tree);
  auto from_tree = loadTextDataset(tree.path());
  ASSERT_TRUE(from_tree.ok()) << from_tree.error();
  EXPECT_EQ(from_tree->dataset.train.size(), 6u);

  FixtureFolder pair;
  pair.write("train.csv", "text,label\na,1\nb,0\nc,1\n");
  pair.write("test.csv", "text,label\nd,0\n");
  auto from_pair = loadTextDataset(pair.path());
  ASSERT_TRUE(from_pair.ok()) << from_pair.error();
  EXPECT_EQ(from_pair->dataset.train.size(), 3u);
  ASSERT_EQ(from_pair->dataset.test.size(), 1u);
  EXPECT_EQ(from_pair->dataset.test[0].text, "d");

  FixtureFolder single;
  std::string csv = "review,sentiment\n";
  for (int i = 0; i < 10; ++i)
    csv += "review " + std::to_string(i) + (i % 2 ? ",positive\n" : ",negative\n");
  single.write("IMDB Dataset.csv", csv);
  auto from_single = loadTextDataset(single.path());
  ASSERT_TRUE(from_single.ok()) << from_single.error();
  EXPECT_EQ(from_single->dataset.train.size(), 8u) << "a CSV without a test split is cut 80/20";
  EXPECT_EQ(from_single->dataset.test.size(), 2u);
  auto same_seed = loadTextDataset(single.path("IMDB Dataset.csv"));
  ASSERT_TRUE(same_seed.ok());
  EXPECT_EQ(same_seed->dataset.test[0].text, from_single->dataset.test[0].text);
  EXPECT_EQ(same_seed->dataset.test[1].text, from_single->dataset.test[1].text);

  FixtureFolder nothing;
  nothing.write("notes.md", "no data here");
  auto none = loadTextDataset(nothing.path());
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().find("found no IMDB data"), std::string::npos) << none.error();
  EXPECT_FALSE(loadTextDataset(nothing.path("missing.csv")).ok());
}

}  // namespace
}  // namespace ascope
