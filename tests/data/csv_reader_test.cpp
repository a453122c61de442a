#include "engine/data/csv_reader.h"

#include <gtest/gtest.h>

#include <vector>

namespace ascope {
namespace {

std::vector<CsvRecord> readAll(std::string_view text) {
  CsvReader reader(text);
  std::vector<CsvRecord> records;
  CsvRecord record;
  while (reader.next(record)) records.push_back(record);
  return records;
}

using Fields = std::vector<std::string>;

TEST(CsvReader, SplitsPlainRecords) {
  const auto records = readAll("a,b,c\n1,2,3\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].fields, (Fields{"a", "b", "c"}));
  EXPECT_EQ(records[1].fields, (Fields{"1", "2", "3"}));
  EXPECT_EQ(records[1].line, 2u);
}

TEST(CsvReader, QuotedFieldsHoldCommasNewlinesAndDoubledQuotes) {
  const auto records =
      readAll("text,label\n\"Great, really \"\"great\"\"\nfilm\",1\n\"x\"\"\",0\nlast,1");
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[1].fields, (Fields{"Great, really \"great\"\nfilm", "1"}));
  EXPECT_EQ(records[1].line, 2u);
  EXPECT_EQ(records[2].fields, (Fields{"x\"", "0"}));
  EXPECT_EQ(records[2].line, 4u) << "the record after a two-line field starts on line 4";
  EXPECT_EQ(records[3].fields, (Fields{"last", "1"})) << "a final line without newline counts";
  EXPECT_EQ(records[3].line, 5u);
}

TEST(CsvReader, HandlesCrLfAndLoneCrAndBom) {
  const auto records = readAll("\xEF\xBB\xBFh1,h2\r\n\"a\r\nb\",c\r\nd,e\rf,g\r\n");
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[0].fields, (Fields{"h1", "h2"})) << "the byte-order mark is not part of h1";
  EXPECT_EQ(records[1].fields, (Fields{"a\r\nb", "c"}));
  EXPECT_EQ(records[2].fields, (Fields{"d", "e"}));
  EXPECT_EQ(records[2].line, 4u);
  EXPECT_EQ(records[3].fields, (Fields{"f", "g"}));
  EXPECT_EQ(records[3].line, 5u);
}

TEST(CsvReader, EmptyFieldsAndBlankLines) {
  const auto records = readAll("a,,\n\n,b\n");
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].fields, (Fields{"a", "", ""}));
  EXPECT_EQ(records[1].fields, (Fields{""}));
  EXPECT_EQ(records[2].fields, (Fields{"", "b"}));
  EXPECT_EQ(records[2].line, 3u);
}

TEST(CsvReader, IsLenientWithStrayQuotes) {
  const auto records = readAll("ab\"c,\"q\"tail,x\n");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].fields, (Fields{"ab\"c", "qtail", "x"}));
}

TEST(CsvReader, MarksAnUnterminatedQuote) {
  const auto records = readAll("a,b\n\"never closed,1\nmore\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_FALSE(records[0].unterminated_quote);
  EXPECT_TRUE(records[1].unterminated_quote);
  EXPECT_EQ(records[1].line, 2u);
  EXPECT_EQ(records[1].fields, (Fields{"never closed,1\nmore\n"}));
}

TEST(CsvReader, EmptyInputHasNoRecords) {
  EXPECT_TRUE(readAll("").empty());
  EXPECT_TRUE(readAll("\xEF\xBB\xBF").empty());
}

}  // namespace
}  // namespace ascope
