#include "engine/text/unicode/utf8_repair.h"

#include <gtest/gtest.h>

namespace ascope {
namespace {

const std::string kReplacementBytes = std::string(kReplacementCharacter);

TEST(Utf8Repair, KeepsValidText) {
  std::size_t replaced = 0;
  EXPECT_EQ(repairUtf8("plain ascii", &replaced), "plain ascii");
  EXPECT_EQ(repairUtf8("perché così 𝄞 日本", &replaced), "perché così 𝄞 日本");
  EXPECT_EQ(replaced, 0u);
}

TEST(Utf8Repair, ReplacesMaximalInvalidSubparts) {
  std::size_t replaced = 0;
  // Lone continuation byte, Latin-1 byte, truncated 3-byte sequence, surrogate, overlong, >
  // U+10FFFF.
  EXPECT_EQ(repairUtf8("a\x80z", &replaced), "a" + kReplacementBytes + "z");
  EXPECT_EQ(repairUtf8("caf\xE9!", &replaced), "caf" + kReplacementBytes + "!");
  EXPECT_EQ(repairUtf8("x\xE6\x97", &replaced), "x" + kReplacementBytes)
      << "one U+FFFD for a truncated sequence";
  EXPECT_EQ(repairUtf8("\xED\xA0\x80", &replaced),
            kReplacementBytes + kReplacementBytes + kReplacementBytes);
  EXPECT_EQ(repairUtf8("\xC0\xAF", &replaced), kReplacementBytes + kReplacementBytes);
  EXPECT_EQ(repairUtf8("\xF4\x90\x80\x80", &replaced),
            kReplacementBytes + kReplacementBytes + kReplacementBytes + kReplacementBytes);
  EXPECT_EQ(replaced, 1u + 1u + 1u + 3u + 2u + 4u);
}

}  // namespace
}  // namespace ascope
