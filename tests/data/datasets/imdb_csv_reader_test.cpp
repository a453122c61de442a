#include "engine/datasets/imdb_csv_reader.h"

#include <gtest/gtest.h>

#include "engine/text/unicode/utf8_repair.h"
#include "tests/data/fixture_folder.h"
#include "tests/support/test_files.h"

namespace ascope {
namespace {

using testing::contains;

TEST(ImdbCsvReader, ReadsTextLabelWithRfc4180Quoting) {
  const std::string csv =
      "text,label\r\n"
      "\"A film, with commas\",1\r\n"
      "\"Two\r\nlines and \"\"quotes\"\"<br /><br />end\",0\r\n"
      "plain,1";
  auto loaded = ImdbCsvReader::parse(csv, "reviews.csv");
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  ASSERT_EQ(loaded->dataset.size(), 3u);
  EXPECT_TRUE(loaded->warnings.empty());
  EXPECT_EQ(loaded->dataset[0].text, "A film, with commas");
  EXPECT_EQ(loaded->dataset[0].label, 1);
  EXPECT_EQ(loaded->dataset[1].text, "Two\r\nlines and \"quotes\"  end");
  EXPECT_EQ(loaded->dataset[1].label, 0);
  EXPECT_EQ(loaded->dataset[2].text, "plain");
}

TEST(ImdbCsvReader, ReadsReviewSentimentInAnyOrderAndCase) {
  const std::string csv =
      "id, Sentiment ,REVIEW\n"
      "1,Positive,Loved it\n"
      "2,NEGATIVE,Hated it\n";
  auto loaded = ImdbCsvReader::parse(csv, "IMDB Dataset.csv");
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  ASSERT_EQ(loaded->dataset.size(), 2u);
  EXPECT_EQ(loaded->dataset[0].text, "Loved it");
  EXPECT_EQ(loaded->dataset[0].label, 1);
  EXPECT_EQ(loaded->dataset[1].text, "Hated it");
  EXPECT_EQ(loaded->dataset[1].label, 0);
}

TEST(ImdbCsvReader, SkipsAndCountsBadRowsWithTheirLines) {
  const std::string csv =
      "text,label\n"
      "good,1\n"
      "no label column\n"        // line 3
      "\n"                       // blank: ignored, not counted
      "\"multi\nline\",maybe\n"  // line 5-6: unknown label
      "fine,0\n"
      ",1\n"                 // line 8: empty text
      "\"never closed,1\n";  // line 9
  auto loaded = ImdbCsvReader::parse(csv, "bad.csv");
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  ASSERT_EQ(loaded->dataset.size(), 2u);
  EXPECT_EQ(loaded->dataset[1].text, "fine");
  ASSERT_EQ(loaded->warnings.size(), 4u);
  EXPECT_EQ(loaded->warnings[0], "bad.csv: 1 rows skipped for a missing column (line 3)");
  EXPECT_TRUE(contains(loaded->warnings[1], "1 rows skipped for an unknown label"))
      << loaded->warnings[1];
  EXPECT_TRUE(contains(loaded->warnings[1], "line 5 \"maybe\"")) << loaded->warnings[1];
  EXPECT_EQ(loaded->warnings[2], "bad.csv: 1 rows skipped for an empty text (line 8)");
  EXPECT_EQ(loaded->warnings[3], "bad.csv: 1 rows skipped for a quote that never closes (line 9)");
}

TEST(ImdbCsvReader, ReplacesAndCountsInvalidUtf8) {
  auto loaded =
      ImdbCsvReader::parse("text,label\n\"caf\xE9\",1\nok,0\n\xFF\xFEx,1\n", "latin1.csv");
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  ASSERT_EQ(loaded->dataset.size(), 3u);
  EXPECT_EQ(loaded->dataset[0].text, "caf" + std::string(kReplacementCharacter));
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_EQ(loaded->warnings[0],
            "latin1.csv: 3 invalid UTF-8 sequences replaced by U+FFFD (line 2, line 4)");
}

TEST(ImdbCsvReader, StopsOnEmptyFileBadHeaderOrNoValidRow) {
  auto empty = ImdbCsvReader::parse(" \r\n", "empty.csv");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error(), "empty.csv: file is empty");

  auto header = ImdbCsvReader::parse("comment,score\nnice,5\n", "other.csv");
  ASSERT_FALSE(header.ok());
  EXPECT_EQ(header.error(),
            "other.csv: line 1, the header, has the 2 columns comment,score, neither text,label "
            "nor review,sentiment (a CSV of reviews has a header such as text,label)");

  // A file that is no CSV (a run's config.json naming /etc/passwd as its data) is not
  // repeated in the message.
  auto passwd = ImdbCsvReader::parse("root:x:0:0:root:/root:/bin/bash\nbin:x:1:1\n", "passwd");
  ASSERT_FALSE(passwd.ok());
  EXPECT_FALSE(contains(passwd.error(), "root")) << passwd.error();
  EXPECT_TRUE(contains(passwd.error(), "passwd: line 1, the header, has 1 column, none of them"))
      << passwd.error();

  auto none = ImdbCsvReader::parse("text,label\nx,7\ny\n", "none.csv");
  ASSERT_FALSE(none.ok());
  EXPECT_TRUE(contains(none.error(), "none.csv: no valid rows")) << none.error();
  EXPECT_TRUE(contains(none.error(), "(line 3)")) << none.error();
  EXPECT_TRUE(contains(none.error(), "line 2 \"7\"")) << none.error();

  auto header_only = ImdbCsvReader::parse("text,label\n", "header_only.csv");
  EXPECT_FALSE(header_only.ok());
}

TEST(ImdbCsvReader, ReadsFromDiskInBinary) {
  testing::FixtureFolder folder;
  const char kBytes[] = "text,label\r\n\"a\0b\",1\r\n";
  const std::string path = folder.write("reviews.csv", std::string(kBytes, sizeof(kBytes) - 1));
  auto loaded = ImdbCsvReader::read(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  ASSERT_EQ(loaded->dataset.size(), 1u);
  EXPECT_EQ(loaded->dataset[0].text, std::string("a\0b", 3)) << "a NUL byte does not end the file";
  auto missing = ImdbCsvReader::read(folder.path("nope.csv"));
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(contains(missing.error(), "nope.csv: cannot open")) << missing.error();
}

}  // namespace
}  // namespace ascope
