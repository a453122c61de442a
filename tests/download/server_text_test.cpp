// printableServerText: what a server's words may look like on a terminal.
#include "engine/download/server_text.h"

#include <gtest/gtest.h>

#include <string>

namespace ascope {
namespace {

TEST(ServerText, ControlAndBidiCharactersAndBadBytesAreWrittenOut) {
  EXPECT_EQ(printableServerText("Access denied"), "Access denied");
  EXPECT_EQ(printableServerText("\x1b[2J\x1b]0;owned\x07!"), "\\x1B[2J\\x1B]0;owned\\x07!");
  EXPECT_EQ(printableServerText(std::string("a\0b\r\n\t\x7f", 7)), "a\\x00b\\x0D\\x0A\\x09\\x7F");
  EXPECT_EQ(printableServerText("\xc2\x9b"
                                "31m"),
            "\\u{9B}31m");  // C1 CSI
  EXPECT_EQ(printableServerText("abc\xe2\x80\xae"
                                "cba"),
            "abc\\u{202E}cba");  // right-to-left override
  EXPECT_EQ(printableServerText("caf\xc3\xa9 \xe2\x9c\x93"), "caf\xc3\xa9 \xe2\x9c\x93");
  EXPECT_EQ(printableServerText("bad \xff byte"), "bad \\xFF byte");
  EXPECT_EQ(printableServerText("cut \xe2\x9c"), "cut \\xE2\\x9C");  // a sequence cut short
  for (const char* text : {"\x1b[2J", "a\nb", "\xc2\x9b", "x\xe2\x80\xae"}) {
    EXPECT_FALSE(isPrintableServerText(text)) << text;
    EXPECT_TRUE(isPrintableServerText(printableServerText(text))) << text;
  }
}

TEST(ServerText, LongTextIsCutAtACharacterBoundary) {
  std::string text;
  for (int i = 0; i < 400; ++i) text += "\xc3\xa9";  // 800 bytes of é
  const std::string cut = printableServerText(text);
  EXPECT_LE(cut.size(), kMaxServerTextBytes + 3);
  EXPECT_EQ(cut.substr(cut.size() - 3), "\xe2\x80\xa6");
  EXPECT_TRUE(isPrintableServerText(cut));
  EXPECT_EQ(cut.substr(0, 4), "\xc3\xa9\xc3\xa9");
}

}  // namespace
}  // namespace ascope
