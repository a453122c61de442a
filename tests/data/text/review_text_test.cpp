#include "engine/text/words/review_text.h"

#include <gtest/gtest.h>

#include "engine/text/unicode/utf8_repair.h"

namespace ascope {
namespace {

const std::string kFffd = std::string(kReplacementCharacter);

TEST(ReviewText, RemovesLineBreakTagsAndRepairsBytes) {
  std::size_t replaced = 0;
  EXPECT_EQ(cleanReviewText("One.<br /><br />Two<BR/>three<br>four <b>bold</b>", replaced),
            "One.  Two three four <b>bold</b>");
  EXPECT_EQ(cleanReviewText("bad \xFF byte<br", replaced), "bad " + kFffd + " byte<br");
  EXPECT_EQ(replaced, 1u);
}
}  // namespace
}  // namespace ascope
