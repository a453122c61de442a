#include "engine/runfolder/head_stats/head_stats_csv_reader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <string>

#include "tests/data/fixture_folder.h"

namespace ascope {
namespace {

constexpr const char* kHeader = "step,group,layer,head,metric,value\n";

TEST(HeadStatsCsvReader, ReadsRowsWithSpacesInGroupNamesAndNan) {
  const std::string text = std::string(kHeader) +
                           "100,encoder self,0,3,entropy,0.5\n"
                           "100,decoder self,1,0,distance,2.75\n"
                           "\n"
                           "200,cross,5,7,max_weight,nan\r\n";
  const Expected<std::vector<HeadStatsRow>> rows = parseHeadStatsCsv(text, "h.csv");
  ASSERT_TRUE(rows.ok()) << rows.error();
  ASSERT_EQ(rows->size(), 3u);
  const HeadStatsRow& first = (*rows)[0];
  EXPECT_EQ(first.step, 100);
  EXPECT_EQ(first.statistic.group, "encoder self");
  EXPECT_EQ(first.statistic.layer, 0);
  EXPECT_EQ(first.statistic.head, 3);
  EXPECT_EQ(first.statistic.metric, "entropy");
  EXPECT_DOUBLE_EQ(first.statistic.value, .5);
  EXPECT_DOUBLE_EQ((*rows)[1].statistic.value, 2.75);
  EXPECT_EQ((*rows)[2].step, 200);
  EXPECT_EQ((*rows)[2].statistic.head, 7);
  EXPECT_TRUE(std::isnan((*rows)[2].statistic.value));
}

TEST(HeadStatsCsvReader, RowsCutShortAreSkippedWhereverTheyAre) {
  // A full disk cut row 3 in its value; the writer began the next row on a line of its own. The
  // run was then killed while writing the last row.
  const std::string text = std::string(kHeader) +
                           "10,encoder,0,0,entropy,0.25\n"
                           "10,encoder,0,0,distance,1.2e\n"
                           "10,encoder,0,1,entr\n"
                           "10,encoder,0,1,entropy,\n"
                           "20,encoder,0,0,entropy,0.5\n"
                           "20,encoder,0,0,dist";
  const Expected<std::vector<HeadStatsRow>> rows = parseHeadStatsCsv(text, "h.csv");
  ASSERT_TRUE(rows.ok()) << rows.error();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].step, 10);
  EXPECT_EQ((*rows)[1].step, 20);
  EXPECT_DOUBLE_EQ((*rows)[1].statistic.value, .5);
}

std::string rowErrorOf(const std::string& row) {
  const Expected<std::vector<HeadStatsRow>> rows =
      parseHeadStatsCsv(std::string(kHeader) + "1,encoder,0,0,entropy,0.5\n" + row + "\n", "h.csv");
  return rows.ok() ? "(no error)" : rows.error();
}

TEST(HeadStatsCsvReader, MalformedRowsAreRefusedNamingTheLineAndTheValue) {
  EXPECT_EQ(rowErrorOf("2,encoder,-1,0,entropy,0.5"),
            "h.csv:3: layer \"-1\" is not a whole number in 0..1023");
  EXPECT_EQ(rowErrorOf("2,encoder,0,1024,entropy,0.5"),
            "h.csv:3: head \"1024\" is not a whole number in 0..1023");
  EXPECT_EQ(rowErrorOf("2,encoder,0,0,entropi,0.5"),
            "h.csv:3: metric \"entropi\" is not one of entropy, distance, special_mass, "
            "first_token_mass, max_weight, diagonal, previous_token, next_token");
  EXPECT_EQ(rowErrorOf("2,encoder,0,0,entropy,3.5"),
            "h.csv:3: value \"3.5\" of entropy is outside [0, 1]");
  EXPECT_EQ(rowErrorOf("2,encoder,0,0,distance,2e6"),
            "h.csv:3: value \"2e6\" of distance is outside [0, 1e6]");
  EXPECT_EQ(rowErrorOf("2,encoder,0,0,distance,inf"), "h.csv:3: value \"inf\" is not a number");
  EXPECT_EQ(rowErrorOf("2,encoder,0,0,entropy,0.5x"), "h.csv:3: value \"0.5x\" is not a number");
  EXPECT_EQ(rowErrorOf("1.5,encoder,0,0,entropy,0.5"),
            "h.csv:3: step \"1.5\" is not a whole number ≥ 0");
  EXPECT_EQ(rowErrorOf(" 2,encoder,0,0,entropy,0.5"),
            "h.csv:3: step \" 2\" is not a whole number ≥ 0");
  EXPECT_EQ(rowErrorOf("2,encoder,self,0,0,entropy,0.5"),
            "h.csv:3: 7 fields where step,group,layer,head,metric,value has 6");
  EXPECT_EQ(rowErrorOf("2,,0,0,entropy,0.5"), "h.csv:3: group \"\" is not a name of 1 to 64 bytes");
  EXPECT_EQ(rowErrorOf("2,enc\toder,0,0,entropy,0.5"),
            "h.csv:3: group \"enc\\x09oder\" has a control character");
  EXPECT_EQ(rowErrorOf("99999999999999999999,encoder,0,0,entropy,0.5"),
            "h.csv:3: step \"99999999999999999999\" is not a whole number ≥ 0");
  EXPECT_EQ(rowErrorOf(std::string(300, '7')).substr(0, 60),
            "h.csv:3: a line of 300 bytes, over the 256-byte limit of a r");
}

TEST(HeadStatsCsvReader, FieldsAreReadAsCsvButTheGroupIsOneTheWriterCouldWrite) {
  // The writer quotes nothing; a quoted field reads as CSV says, but a group name that only
  // quotes could carry would not read back as itself from the writer's unquoted row.
  const Expected<std::vector<HeadStatsRow>> rows = parseHeadStatsCsv(
      std::string(kHeader) + "\"7\",\"encoder self\",0,1,entropy,\"0.5\"\n", "h.csv");
  ASSERT_TRUE(rows.ok()) << rows.error();
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0].step, 7);
  EXPECT_EQ((*rows)[0].statistic.group, "encoder self");
  EXPECT_DOUBLE_EQ((*rows)[0].statistic.value, .5);

  EXPECT_EQ(rowErrorOf("2,\"enc,oder\",0,0,entropy,0.5"),
            "h.csv:3: group \"enc,oder\" has a comma or starts with a quote");
  EXPECT_EQ(rowErrorOf("2,\"\"\"enc\",0,0,entropy,0.5"),
            "h.csv:3: group \"\"enc\" has a comma or starts with a quote");
  EXPECT_EQ(rowErrorOf("2,enc\"oder,0,0,entropy,0.5"), "(no error)")
      << "a quote inside an unquoted field is kept, and reads back";
  EXPECT_EQ(rowErrorOf("2,encoder,0,0,entropy,\"0.5"),
            "h.csv:3: a quoted field that does not close");
  EXPECT_EQ(rowErrorOf("2,encoder,0,0,entropy,0.5\r3"), "h.csv:3: a line break within the row");
}

TEST(HeadStatsCsvReader, RefusesAFileWithoutTheHeader) {
  EXPECT_EQ(parseHeadStatsCsv("", "h.csv").error(),
            "h.csv:1: not the head statistics header \"step,group,layer,head,metric,value\"");
  EXPECT_EQ(parseHeadStatsCsv("step,epoch,split,loss\n1,1,train,0.5\n", "h.csv").error(),
            "h.csv:1: not the head statistics header \"step,group,layer,head,metric,value\"");
}

TEST(HeadStatsCsvReader, ReadsAFileAndRefusesOneOverTheSizeLimit) {
  const testing::FixtureFolder folder;
  const std::string path =
      folder.write("head_stats.csv", std::string(kHeader) + "5,encoder,1,2,diagonal,0.75\n");
  Expected<std::vector<HeadStatsRow>> rows = readHeadStatsCsv(path);
  ASSERT_TRUE(rows.ok()) << rows.error();
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0].statistic.metric, "diagonal");

  // Sparse: the size is what counts, no disk is used.
  ASSERT_EQ(::truncate(path.c_str(), static_cast<off_t>(kMaxHeadStatsCsvBytes + 1)), 0);
  rows = readHeadStatsCsv(path);
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.error(), path + " is 64.0 MiB, over the 64 MiB limit for this file");

  rows = readHeadStatsCsv(folder.path("missing.csv"));
  ASSERT_FALSE(rows.ok());
  EXPECT_NE(rows.error().find(folder.path("missing.csv")), std::string::npos) << rows.error();
}

}  // namespace
}  // namespace ascope
