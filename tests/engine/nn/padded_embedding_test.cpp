// The GPU's way of a padded embedding lookup against LibTorch's embedding: the same rows, the same
// gradients, the padding row zero and untouched.
#include "engine/nn/padded_embedding.h"

#include <gtest/gtest.h>
#include <torch/types.h>

namespace ascope {
namespace {

TEST(PaddedEmbedding, IndexSelectGivesTheEmbeddingsRowsAndGradients) {
  torch::manual_seed(2);
  const torch::Tensor ids = torch::tensor({{4, 1, 0, 0}, {2, 2, 3, 0}}, torch::kLong);
  torch::Tensor reference = torch::randn({6, 5}, torch::kDouble);
  reference[0].zero_();  // an Embedding's padding row starts at zero
  reference.set_requires_grad(true);
  const torch::Tensor mine = reference.detach().clone().set_requires_grad(true);
  const torch::Tensor upstream = torch::randn({2, 4, 5}, torch::kDouble);

  const torch::Tensor expected = at::embedding(reference, ids, 0);
  const torch::Tensor got = paddedEmbeddingByIndexSelect(mine, ids, 0);
  EXPECT_TRUE(torch::allclose(got, expected));
  (expected * upstream).sum().backward();
  (got * upstream).sum().backward();
  EXPECT_TRUE(torch::allclose(mine.grad(), reference.grad()));
  EXPECT_EQ(mine.grad()[0].abs().sum().item<double>(), 0.0);  // padding learns nothing
  // On the CPU paddedEmbedding is LibTorch's own.
  EXPECT_TRUE(torch::equal(paddedEmbedding(reference.detach(), ids, 0), expected.detach()));
}

}  // namespace
}  // namespace ascope
