#include "engine/datasets/seeded_split.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace ascope {
namespace {

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
  EXPECT_EQ(seededPermutation(8, 42), (std::vector<std::size_t>{7, 0, 5, 1, 2, 4, 3, 6}));
}

TEST(SeededPermutation, IsAPermutationFixedBySeed) {
  for (const std::size_t n : {0, 1, 2, 1000}) {
    std::vector<std::size_t> order = seededPermutation(n, 123);
    EXPECT_EQ(order, seededPermutation(n, 123));
    std::sort(order.begin(), order.end());
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(order[i], i);
    EXPECT_EQ(order.size(), n);
  }
  // 1000! orders: two seeds agreeing would mean the seed is ignored.
  EXPECT_NE(seededPermutation(1000, 123), seededPermutation(1000, 124));
}

}  // namespace
}  // namespace ascope
