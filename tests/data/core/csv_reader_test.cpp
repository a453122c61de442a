#include "engine/core/csv_reader.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
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

TEST(CsvReader, KeepsTheByteOrderMarkWhenAskedTo) {
  CsvReader reader("\xEF\xBB\xBFh1,h2\n", ',', /*skip_byte_order_mark=*/false);
  CsvRecord record;
  ASSERT_TRUE(reader.next(record));
  EXPECT_EQ(record.fields, (Fields{"\xEF\xBB\xBFh1", "h2"}));
}

TEST(CsvFields, SplitsALineAtEveryDelimiterOutsideQuotes) {
  EXPECT_EQ(*csvFields("1,0,train,0.5"), (Fields{"1", "0", "train", "0.5"}));
  EXPECT_EQ(*csvFields("a;b,c", ';'), (Fields{"a", "b,c"}));
  EXPECT_EQ(*csvFields("\"cross, all\",\"say \"\"hi\"\"\",x"),
            (Fields{"cross, all", "say \"hi\"", "x"}));
  EXPECT_EQ(*csvFields("ab\"c,d"), (Fields{"ab\"c", "d"})) << "a quote inside a field is kept";
}

TEST(CsvFields, KeepsEmptyFieldsAndTheByteOrderMark) {
  EXPECT_EQ(*csvFields(""), (Fields{""})) << "an empty line is one empty field";
  EXPECT_EQ(*csvFields(",,"), (Fields{"", "", ""}));
  EXPECT_EQ(*csvFields("5,1,test,,"), (Fields{"5", "1", "test", "", ""}));
  EXPECT_EQ(*csvFields("\"\",x"), (Fields{"", "x"}));
  const std::string bom = "\xEF\xBB\xBF";
  EXPECT_EQ(*csvFields(bom + "1,2"), (Fields{bom + "1", "2"}))
      << "a line's byte-order mark is not a file's";
}

TEST(CsvFields, RefusesLineBreaksAndAQuoteThatDoesNotClose) {
  // A lone CR (splitLines leaves it in a line), a CRLF not split off, a quoted CRLF, an LF: a
  // record break or a field over two lines, neither of which one line can hold.
  for (const char* line : {"1,2\r3,4", "1,2\r\n", "\"a\r\nb\",c", "1,2\n3"}) {
    const Expected<Fields> fields = csvFields(line);
    ASSERT_FALSE(fields.ok()) << line;
    EXPECT_EQ(fields.error(), "a line break within the row");
  }
  const Expected<Fields> open = csvFields("1,\"never closed,2");
  ASSERT_FALSE(open.ok());
  EXPECT_EQ(open.error(), "a quoted field that does not close");
}

TEST(ParseCsvInteger, TakesTheWholeFieldInRange) {
  EXPECT_EQ(parseCsvInteger("42", 0, 100), 42);
  EXPECT_EQ(parseCsvInteger("-1", -1, 1023), -1);
  EXPECT_EQ(parseCsvInteger("9223372036854775807", 1, INT64_MAX), INT64_MAX);
  EXPECT_EQ(parseCsvInteger("-0", 0, 10), 0) << "a minus sign is the caller's to refuse";
  for (const char* field :
       {"", " 1", "1 ", "+1", "1.5", "1e3", "0x10", "12a", "101", "-2", "99999999999999999999"}) {
    EXPECT_FALSE(parseCsvInteger(field, -1, 100).has_value()) << field;
  }
}

}  // namespace
}  // namespace ascope
