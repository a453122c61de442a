// FeedForward's activations: the exact erf GELU, its tanh approximation (pretrained checkpoints
// with hidden_act "gelu_new") and ReLU, and their names.
#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>
#include <gtest/gtest.h>

#include <cmath>

#include "engine/nn/feed_forward.h"

namespace ascope {
namespace {

/// FeedForward with identity projections, so that its output is the activation itself.
at::Tensor activationThroughFeedForward(Activation activation, const at::Tensor& x) {
  const int64_t d = x.size(-1);
  FeedForward block(d, d, activation, 0.0);
  const at::NoGradGuard no_grad;
  block->linear1->weight.copy_(at::eye(d));
  block->linear1->bias.zero_();
  block->linear2->weight.copy_(at::eye(d));
  block->linear2->bias.zero_();
  return block(x);
}

TEST(FeedForwardActivation, GeluTanhIsTheTanhApproximation) {
  const at::Tensor x = at::linspace(-6, 6, 97).reshape({1, 1, 97});
  const at::Tensor ours = activationThroughFeedForward(Activation::kGeluTanh, x);
  // 0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³))), the formula of the original BERT code.
  const at::Tensor formula =
      0.5 * x * (1 + at::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x.pow(3))));
  EXPECT_LE((ours - formula).abs().max().item<double>(), 1e-6);
  const at::Tensor exact = activationThroughFeedForward(Activation::kGelu, x);
  EXPECT_GT((ours - exact).abs().max().item<double>(), 1e-4);  // a different function
}

TEST(FeedForwardActivation, NamesRoundTrip) {
  for (Activation activation : {Activation::kRelu, Activation::kGelu, Activation::kGeluTanh}) {
    Activation parsed = Activation::kRelu;
    ASSERT_TRUE(parseActivation(activationName(activation), &parsed));
    EXPECT_EQ(parsed, activation);
  }
  Activation unchanged = Activation::kGelu;
  EXPECT_FALSE(parseActivation("swish", &unchanged));
  EXPECT_EQ(unchanged, Activation::kGelu);
}

}  // namespace
}  // namespace ascope
