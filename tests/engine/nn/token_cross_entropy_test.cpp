// tokenCrossEntropy against LibTorch's cross_entropy, which it stands in for on the translator's
// training step.
#include "engine/nn/token_cross_entropy.h"

#include <gtest/gtest.h>
#include <torch/nn/functional/loss.h>
#include <torch/types.h>

namespace ascope {
namespace {

TEST(TokenCrossEntropy, IsCrossEntropyWithSmoothingAndAnIgnoredLabel) {
  torch::manual_seed(5);
  const torch::Tensor logits = torch::randn({12, 9}, torch::kDouble);
  const torch::Tensor labels = torch::tensor({0, 3, 8, 0, 1, 2, 0, 5, 7, 4, 0, 6}, torch::kLong);
  for (double smoothing : {0.0, 0.1, 0.3}) {
    SCOPED_TRACE(smoothing);
    const auto reference = [&](torch::nn::functional::CrossEntropyFuncOptions::reduction_t how) {
      return torch::nn::functional::cross_entropy(logits, labels,
                                                  torch::nn::functional::CrossEntropyFuncOptions()
                                                      .ignore_index(0)
                                                      .label_smoothing(smoothing)
                                                      .reduction(how));
    };
    const torch::Tensor expected = reference(torch::kNone);
    const torch::Tensor per_token = tokenCrossEntropy(logits, labels, 0, smoothing);
    EXPECT_TRUE(torch::allclose(per_token, expected, 1e-12, 1e-12));
    // The mean over the labels that count, as reduction "mean" gives it.
    const torch::Tensor mean = per_token.sum() / labels.ne(0).sum();
    EXPECT_NEAR(mean.item<double>(), reference(torch::kMean).item<double>(), 1e-12);
    EXPECT_EQ(per_token[0].item<double>(), 0.0);  // an ignored label costs nothing
  }
}

}  // namespace
}  // namespace ascope
