// The one sanitiser of a file's bytes in messages: what a terminal would act on is written out,
// bytes that are not UTF-8 too, and printable text passes as it is.
#include "engine/core/printable_text.h"

#include <gtest/gtest.h>

#include <string>

namespace ascope {
namespace {

TEST(PrintableText, WritesOutWhatATerminalWouldActOn) {
  EXPECT_EQ(printableText("pieces_en.model"), "pieces_en.model");
  EXPECT_EQ(printableText("\x1b]0;owned\x07"), "\\x1B]0;owned\\x07");  // retitles a terminal
  EXPECT_EQ(printableText("\x1b[2J\x1b[H"), "\\x1B[2J\\x1B[H");        // clears it
  EXPECT_EQ(printableText(std::string("a\0b\r\n\t\x7f", 7)), "a\\x00b\\x0D\\x0A\\x09\\x7F");
  EXPECT_EQ(printableText("\xc2\x9b"
                          "31m"),
            "\\u{9B}31m");  // C1 CSI
  EXPECT_EQ(printableText("abc\xe2\x80\xae"
                          "cba"),
            "abc\\u{202E}cba");  // RLO
  EXPECT_EQ(printableText("caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80"),
            "caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80");
}

TEST(PrintableText, BytesThatAreNotUtf8AreWrittenOutOneByOne) {
  EXPECT_EQ(printableText("bad \xff byte"), "bad \\xFF byte");
  EXPECT_EQ(printableText("cut \xe2\x9c"), "cut \\xE2\\x9C");
  EXPECT_EQ(printableText("\xc0\xaf"), "\\xC0\\xAF");                    // overlong '/'
  EXPECT_EQ(printableText("\xed\xa0\x80"), "\\xED\\xA0\\x80");           // a UTF-16 surrogate
  EXPECT_EQ(printableText("\xf4\x90\x80\x80"), "\\xF4\\x90\\x80\\x80");  // above U+10FFFF
}

TEST(PrintableText, LongTextIsCutAtACharacterBoundaryAndItsOwnOutputPassesAsItIs) {
  std::string text;
  for (int i = 0; i < 400; ++i) text += "\xc3\xa9\x1b";
  const std::string shown = printableText(text);
  EXPECT_LE(shown.size(), kMaxQuotedBytes + 3);
  EXPECT_EQ(shown.substr(shown.size() - 3), "\xe2\x80\xa6");
  EXPECT_TRUE(isPrintableText(shown));
  EXPECT_EQ(printableText(shown, 10000), shown);
  for (const char* raw : {"\x1b[2J", "a\nb", "\xc2\x9b", "x\xe2\x80\xae", "\xff"}) {
    EXPECT_FALSE(isPrintableText(raw)) << raw;
    EXPECT_TRUE(isPrintableText(printableText(raw))) << raw;
  }
  EXPECT_EQ(printableText("abcdef", 3), "abc\xe2\x80\xa6");
}

}  // namespace
}  // namespace ascope
