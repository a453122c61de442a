// ReviewDataSettings::word_dropout: training reviews lose words at random; padding stays padding,
// a shard of a data-parallel batch and a batch trimmed to its longest review drop what the whole
// batch would.
#include <gtest/gtest.h>

#include <ATen/ATen.h>
#include <torch/utils.h>

#include <stdexcept>

#include "engine/nn/batch_shard.h"
#include "engine/tasks/sentiment/word_dropout.h"

namespace ascope {
namespace {

constexpr int64_t kPad = 0;

/// (rows, columns) ids 1…, the last `padded` columns of every row padding.
at::Tensor reviews(int64_t rows, int64_t columns, int64_t padded) {
  at::Tensor ids = at::arange(1, rows * columns + 1, at::kLong).view({rows, columns});
  if (padded > 0) ids.narrow(1, columns - padded, padded).fill_(kPad);
  return ids;
}

TEST(WordDropout, DropsAboutTheShareAskedAndOnlyTurnsWordsIntoPadding) {
  const at::Tensor ids = reviews(64, 200, 50);
  torch::manual_seed(3);
  const at::Tensor dropped = dropWords(ids, 0.25, kPad, 200);
  const at::Tensor changed = dropped.ne(ids);
  EXPECT_TRUE(dropped.masked_select(changed).eq(kPad).all().item<bool>());
  EXPECT_TRUE(dropped.narrow(1, 150, 50).eq(kPad).all().item<bool>());  // padding stays
  const double share = changed.sum().item<double>() / (64.0 * 150.0);
  EXPECT_NEAR(share, 0.25, 0.02);
  EXPECT_TRUE(at::equal(dropWords(ids, 0.0, kPad, 200), ids));  // off: the batch as it was
}

TEST(WordDropout, AShardAndATrimmedBatchDropWhatTheWholeBatchWould) {
  const at::Tensor ids = reviews(6, 40, 0);
  torch::manual_seed(11);
  const at::Tensor whole = dropWords(ids, 0.3, kPad, 40);
  torch::manual_seed(11);
  at::Tensor second_half;
  {
    const BatchShardScope scope({3, 3, 6});
    // The rank's batch trimmed to 25 columns (its longest review): the same words drop.
    second_half = dropWords(ids.narrow(0, 3, 3).narrow(1, 0, 25), 0.3, kPad, 40);
  }
  EXPECT_TRUE(at::equal(second_half, whole.narrow(0, 3, 3).narrow(1, 0, 25)));
  EXPECT_FALSE(at::equal(whole.narrow(0, 0, 3), ids.narrow(0, 0, 3)));  // something dropped
  EXPECT_THROW(dropWords(ids, 0.3, kPad, 30), std::invalid_argument);   // wider than max_len
}

}  // namespace
}  // namespace ascope
