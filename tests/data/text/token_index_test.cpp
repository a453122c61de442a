#include "engine/text/words/token_index.h"

#include <gtest/gtest.h>

#include <string>

namespace ascope {
namespace {

TEST(TokenIndex, FindsWhatWasInsertedAndNothingElse) {
  TokenIndex index;
  EXPECT_EQ(index.find("a"), -1) << "empty";
  for (int i = 0; i < 5000; ++i) EXPECT_TRUE(index.insert("token" + std::to_string(i), i));
  EXPECT_EQ(index.size(), 5000u);
  for (int i = 0; i < 5000; ++i) EXPECT_EQ(index.find("token" + std::to_string(i)), i);
  EXPECT_EQ(index.find("token5000"), -1);
  EXPECT_EQ(index.find("token"), -1);
  EXPECT_EQ(index.find(""), -1);
}

TEST(TokenIndex, KeepsTheFirstIdOfARepeatedKey) {
  TokenIndex index;
  EXPECT_TRUE(index.insert("", 0));
  EXPECT_TRUE(index.insert("x", 1));
  EXPECT_FALSE(index.insert("x", 2));
  EXPECT_EQ(index.find("x"), 1);
  EXPECT_EQ(index.find(""), 0);
  const TokenIndex copy = index;
  index.clear();
  EXPECT_EQ(index.find("x"), -1);
  EXPECT_EQ(copy.find("x"), 1) << "a copy owns its keys";
}

}  // namespace
}  // namespace ascope
