#include "engine/datasets/epoch_batches.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "engine/datasets/seeded_split.h"

namespace ascope {
namespace {

using Batches = std::vector<std::vector<int64_t>>;

/// Lengths 3..80 in a scrambled order, like sentence pairs of a corpus.
std::vector<int64_t> scrambledLengths(int64_t n) {
  std::vector<int64_t> lengths;
  for (int64_t i = 0; i < n; ++i) lengths.push_back(3 + (i * 37) % 78);
  return lengths;
}

/// Tokens a batch is padded with beyond its samples' own: longest × size − sum, over all batches.
int64_t paddingWaste(const Batches& batches, const std::vector<int64_t>& lengths) {
  int64_t waste = 0;
  for (const auto& batch : batches) {
    int64_t longest = 0, sum = 0;
    for (int64_t i : batch) {
      longest = std::max(longest, lengths[static_cast<std::size_t>(i)]);
      sum += lengths[static_cast<std::size_t>(i)];
    }
    waste += longest * static_cast<int64_t>(batch.size()) - sum;
  }
  return waste;
}

void expectEverySampleOnce(const Batches& batches, int64_t n, int64_t batch_size) {
  ASSERT_EQ(static_cast<int64_t>(batches.size()), (n + batch_size - 1) / batch_size);
  std::vector<int64_t> all;
  int short_batches = 0;
  for (const auto& batch : batches) {
    EXPECT_LE(static_cast<int64_t>(batch.size()), batch_size);
    short_batches += static_cast<int64_t>(batch.size()) < batch_size;
    all.insert(all.end(), batch.begin(), batch.end());
  }
  EXPECT_EQ(short_batches, n % batch_size == 0 ? 0 : 1);
  std::sort(all.begin(), all.end());
  ASSERT_EQ(static_cast<int64_t>(all.size()), n);
  for (int64_t i = 0; i < n; ++i) EXPECT_EQ(all[static_cast<std::size_t>(i)], i);
}

TEST(EpochBatches, EverySampleAppearsExactlyOncePerEpoch) {
  // 1234 samples in batches of 7: 177 batches, four pools of 350 samples and one of 184.
  for (const int64_t n : {0, 1, 6, 7, 8, 350, 1234}) {
    expectEverySampleOnce(epochBatches(n, 7, 42, 1), n, 7);
    expectEverySampleOnce(epochBatches(n, 7, 42, 1, scrambledLengths(n)), n, 7);
  }
}

TEST(EpochBatches, WithoutLengthsItIsTheEpochPermutationCutInOrder) {
  // The trainer's order before bucketing: runs made then resume onto the same batches.
  const std::vector<std::size_t> order = seededPermutation(10, 42 + 3);
  const Batches batches = epochBatches(10, 4, 42, 3);
  ASSERT_EQ(batches.size(), 3u);
  EXPECT_EQ(batches[0], (std::vector<int64_t>(order.begin(), order.begin() + 4)));
  EXPECT_EQ(batches[1], (std::vector<int64_t>(order.begin() + 4, order.begin() + 8)));
  EXPECT_EQ(batches[2], (std::vector<int64_t>(order.begin() + 8, order.end())));
}

TEST(EpochBatches, DependOnlyOnSeedAndEpoch) {
  const std::vector<int64_t> lengths = scrambledLengths(1234);
  const Batches a = epochBatches(1234, 8, 42, 2, lengths);
  EXPECT_EQ(a, epochBatches(1234, 8, 42, 2, lengths));  // a resumed run sees the same batches
  EXPECT_NE(a, epochBatches(1234, 8, 42, 3, lengths));
  EXPECT_NE(a, epochBatches(1234, 8, 43, 2, lengths));
  EXPECT_NE(epochBatches(1234, 8, 42, 2), epochBatches(1234, 8, 42, 3));
}

TEST(EpochBatches, BatchesOfAPoolHoldConsecutiveLengths) {
  const int64_t n = 1234, batch_size = 7;
  const int64_t pool = batch_size * kBatchesPerLengthPool;
  const std::vector<int64_t> lengths = scrambledLengths(n);
  const Batches batches = epochBatches(n, batch_size, 42, 5, lengths);
  // Which pool each sample was drawn into: its place in the epoch's permutation.
  const std::vector<std::size_t> order = seededPermutation(static_cast<std::size_t>(n), 42 + 5);
  std::vector<int64_t> pool_of(static_cast<std::size_t>(n));
  for (std::size_t place = 0; place < order.size(); ++place) {
    pool_of[order[place]] = static_cast<int64_t>(place) / pool;
  }
  std::map<int64_t, std::vector<std::pair<int64_t, int64_t>>> ranges;  // pool → [min, max] each
  for (const auto& batch : batches) {
    const int64_t first_pool = pool_of[static_cast<std::size_t>(batch.front())];
    for (std::size_t k = 0; k < batch.size(); ++k) {
      EXPECT_EQ(pool_of[static_cast<std::size_t>(batch[k])], first_pool);
      if (k > 0) {
        EXPECT_LE(lengths[static_cast<std::size_t>(batch[k - 1])],
                  lengths[static_cast<std::size_t>(batch[k])]);
      }
    }
    ranges[first_pool].emplace_back(lengths[static_cast<std::size_t>(batch.front())],
                                    lengths[static_cast<std::size_t>(batch.back())]);
  }
  ASSERT_EQ(ranges.size(), 4u);
  for (auto& [p, r] : ranges) {
    std::sort(r.begin(), r.end());
    for (std::size_t i = 1; i < r.size(); ++i) {
      EXPECT_LE(r[i - 1].second, r[i].first) << "pool " << p << ": batches overlap in length";
    }
  }
  // The batch order is shuffled: the first batches are not the shortest of the first pool.
  EXPECT_FALSE(std::is_sorted(batches.begin(), batches.end(), [&](const auto& a, const auto& b) {
    return lengths[static_cast<std::size_t>(a.front())] <
           lengths[static_cast<std::size_t>(b.front())];
  }));
}

TEST(EpochBatches, TheFirstPoolsHoldTheSameSamplesBucketedOrNot) {
  // 1234 samples, batches of 7: pools of 350 samples, the last of 184.
  const std::vector<int64_t> pools = epochSamplePools(1234, 7, 42, 2);
  ASSERT_EQ(pools.size(), 1234u);
  EXPECT_EQ(std::count(pools.begin(), pools.end(), 0), 350);
  EXPECT_EQ(std::count(pools.begin(), pools.end(), 3), 184);
  EXPECT_EQ(*std::max_element(pools.begin(), pools.end()), 3);
  // Unbucketed, the first 50 batches are pool 0; bucketed, the batches of pool 0 are scattered
  // through the epoch but hold the same 350 samples.
  auto samplesOfPool0 = [&pools](const Batches& batches) {
    std::vector<int64_t> samples;
    for (const auto& batch : batches) {
      if (pools[static_cast<std::size_t>(batch.front())] != 0) continue;
      for (int64_t i : batch) {
        EXPECT_EQ(pools[static_cast<std::size_t>(i)], 0);
        samples.push_back(i);
      }
    }
    std::sort(samples.begin(), samples.end());
    return samples;
  };
  const Batches unbucketed = epochBatches(1234, 7, 42, 2);
  const Batches bucketed = epochBatches(1234, 7, 42, 2, scrambledLengths(1234));
  const std::vector<int64_t> pool0 = samplesOfPool0(unbucketed);
  EXPECT_EQ(pool0.size(), 350u);
  EXPECT_EQ(samplesOfPool0(bucketed), pool0);
  EXPECT_EQ(samplesOfPool0(Batches(unbucketed.begin(), unbucketed.begin() + 50)), pool0);
}

TEST(EpochBatches, BucketingCutsThePaddingOfAWorkedExample) {
  // Eight pairs, batches of two, one pool. Sorted: 1 2 | 3 4 | 6 7 | 8 9, padded to 2+4+7+9 = 22
  // per row, 44 tokens for 40 real ones: 4 tokens of padding.
  const std::vector<int64_t> lengths{1, 9, 2, 8, 3, 7, 4, 6};
  EXPECT_EQ(paddingWaste(epochBatches(8, 2, 42, 1, lengths), lengths), 4);
  // The same epoch unbucketed: seededPermutation(8, 43) = 1 2 0 5 3 4 7 6 pairs lengths 9 2 | 1 7 |
  // 8 3 | 6 4, padded with 7 + 6 + 5 + 2 = 20 tokens.
  EXPECT_EQ(paddingWaste(epochBatches(8, 2, 42, 1), lengths), 20);
  // On a corpus-like spread the padding shrinks several-fold.
  const std::vector<int64_t> corpus = scrambledLengths(4000);
  const int64_t bucketed = paddingWaste(epochBatches(4000, 8, 42, 1, corpus), corpus);
  const int64_t random = paddingWaste(epochBatches(4000, 8, 42, 1), corpus);
  EXPECT_LT(bucketed * 10, random) << bucketed << " vs " << random;
}

TEST(EpochBatches, RefusesImpossibleArguments) {
  EXPECT_THROW(epochBatches(10, 0, 1, 1), std::invalid_argument);
  EXPECT_THROW(epochBatches(-1, 4, 1, 1), std::invalid_argument);
  try {
    epochBatches(10, 4, 1, 1, std::vector<int64_t>(9, 1));
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "9 sample lengths for 10 training samples");
  }
}

}  // namespace
}  // namespace ascope
