// A rank's shard of a batch, and the random draws made for it: the augmentation (and, in
// tests/engine/nn/hash_dropout_test.cpp, the dropout) a rank draws for samples 16..31 of a batch
// are those one process draws for the same samples of the whole batch.
#include <gtest/gtest.h>

#include <ATen/ATen.h>
#include <torch/utils.h>

#include "engine/nn/batch_shard.h"
#include "engine/tasks/image_classification/random_crop_flip.h"

namespace ascope {
namespace {

TEST(BatchShard, RanksSplitABatchIntoContiguousNearlyEqualShards) {
  for (int64_t total : {0, 1, 5, 16, 17, 31}) {
    for (int ranks : {1, 2, 3, 8}) {
      int64_t next = 0;
      for (int r = 0; r < ranks; ++r) {
        const BatchShard s = shardOfBatch(total, r, ranks);
        EXPECT_EQ(s.first, next) << total << " over " << ranks;
        EXPECT_EQ(s.total, total);
        EXPECT_TRUE(s.size == total / ranks || s.size == total / ranks + 1);
        next += s.size;
      }
      EXPECT_EQ(next, total) << total << " over " << ranks;
    }
  }
  EXPECT_EQ(shardOfBatch(17, 0, 2).size, 9);  // the first ranks take the remainder
  EXPECT_EQ(shardOfBatch(17, 1, 2).first, 9);
}

TEST(BatchShard, AScopeSetsThisThreadsShardUntilItEnds) {
  EXPECT_EQ(currentBatchShard(7).first, 0);
  EXPECT_EQ(currentBatchShard(7).total, 7);
  {
    const BatchShardScope outer({4, 4, 8});
    EXPECT_EQ(currentBatchShard(4).first, 4);
    {
      const BatchShardScope inner({1, 2, 3});
      EXPECT_EQ(currentBatchShard(2).total, 3);
    }
    EXPECT_EQ(currentBatchShard(4).total, 8);
  }
  EXPECT_EQ(currentBatchShard(3).total, 3);
}

TEST(BatchShard, AugmentationOfAShardIsThatOfTheWholeBatch) {
  const at::Tensor images = at::rand({6, 3, 8, 8});
  torch::manual_seed(11);
  const at::Tensor whole = randomCropFlip(images);
  torch::manual_seed(11);
  at::Tensor second_half;
  {
    const BatchShardScope scope({3, 3, 6});
    second_half = randomCropFlip(images.narrow(0, 3, 3));
  }
  EXPECT_TRUE(at::equal(second_half, whole.narrow(0, 3, 3)));
  // The crops are not all the same, so the comparison above could fail.
  EXPECT_FALSE(at::equal(whole.narrow(0, 0, 3), whole.narrow(0, 3, 3)));
}

}  // namespace
}  // namespace ascope
