#include "engine/analysis/token_alignment.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ascope {
namespace {

using Tokens = std::vector<std::string>;

TEST(TokenAlignment, AReplacedTokenIsASpanOfOneOnEachSide) {
  const TokenAlignment t = alignTokens({"the", "big", "dog"}, {"the", "small", "dog"});
  EXPECT_EQ(t.prefix, 1);
  EXPECT_EQ(t.suffix, 1);
  EXPECT_EQ(t.a_changed, 1);
  EXPECT_EQ(t.b_changed, 1);
  EXPECT_EQ(t.alignedCount(), 3);
  EXPECT_EQ(t.changedPosition(), 1);
}

TEST(TokenAlignment, PrefixAndSuffixNeverOverlap) {
  // "b" repeats: the prefix takes both of b's, so a's second "b" is what changed (dropped).
  const TokenAlignment t = alignTokens({"a", "b", "b", "c"}, {"a", "b", "c"});
  EXPECT_EQ(t.prefix, 2);
  EXPECT_EQ(t.suffix, 1);
  EXPECT_EQ(t.a_changed, 1);
  EXPECT_EQ(t.b_changed, 0);
  // Lined up: a, b, the changed span, c; the suffix's "c" is a's token 3 and b's token 2.
  EXPECT_EQ(t.firstToken(3, false), 3);
  EXPECT_EQ(t.firstToken(3, true), 2);
  EXPECT_EQ(t.tokenCount(2, false), 1);
  EXPECT_EQ(t.tokenCount(2, true), 0);
}

TEST(TokenAlignment, IdenticalTokensHaveNoChangedSpan) {
  const Tokens tokens{"x", "y", "z"};
  const TokenAlignment t = alignTokens(tokens, tokens);
  EXPECT_EQ(t.prefix, 3);
  EXPECT_EQ(t.suffix, 0);
  EXPECT_FALSE(t.changed());
  EXPECT_EQ(t.changedPosition(), -1);
  EXPECT_EQ(t.alignedCount(), 3);
  for (int p = 0; p < 3; ++p) {
    EXPECT_EQ(t.firstToken(p, false), p);
    EXPECT_EQ(t.firstToken(p, true), p);
  }
}

TEST(TokenAlignment, NothingSharedIsOneSpan) {
  const TokenAlignment t = alignTokens({"a", "b"}, {"c", "d", "e"});
  EXPECT_EQ(t.prefix, 0);
  EXPECT_EQ(t.suffix, 0);
  EXPECT_EQ(t.a_changed, 2);
  EXPECT_EQ(t.b_changed, 3);
  EXPECT_EQ(t.alignedCount(), 1);
}

TEST(TokenAlignment, AChangedPatchKeepsEveryPosition) {
  const TokenAlignment t = alignChangedToken(5, 3);
  EXPECT_EQ(t.prefix, 3);
  EXPECT_EQ(t.suffix, 1);
  EXPECT_EQ(t.alignedCount(), 5);
  EXPECT_EQ(t.changedPosition(), 3);
  EXPECT_EQ(t.firstToken(4, true), 4);
}

}  // namespace
}  // namespace ascope
