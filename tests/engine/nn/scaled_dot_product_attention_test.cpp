#include <gtest/gtest.h>
#include <torch/autograd.h>

#include "engine/nn/attention_masks.h"
#include "engine/nn/scaled_dot_product_attention.h"

namespace ascope {
namespace {

TEST(ScaledDotProductAttention, WeightsAreRowStochastic) {
  torch::manual_seed(1);
  const auto q = torch::randn({2, 3, 5, 4}), k = torch::randn({2, 3, 6, 4}),
             v = torch::randn({2, 3, 6, 4});
  AttentionResult r = scaledDotProductAttention(q, k, v);
  EXPECT_EQ(r.output.sizes(), (std::vector<int64_t>{2, 3, 5, 4}));
  EXPECT_TRUE(torch::allclose(r.weights.sum(-1), torch::ones({2, 3, 5}), 1e-6, 1e-6));
}

TEST(ScaledDotProductAttention, BooleanMaskBlocksKeysAndFullyBlockedRowsGiveZeros) {
  torch::manual_seed(2);
  const auto q = torch::randn({1, 1, 3, 4}), k = torch::randn({1, 1, 3, 4}),
             v = torch::randn({1, 1, 3, 4});
  torch::Tensor mask = torch::zeros({3, 3}, torch::kBool);
  mask.index_put_({0, 1}, true);
  mask.index_put_({2}, true);  // row 2 may see nothing
  AttentionResult r = scaledDotProductAttention(q, k, v, mask);
  EXPECT_EQ(r.weights[0][0][0][1].item<float>(), 0.0f);
  EXPECT_TRUE(torch::all(r.weights[0][0][2] == 0).item<bool>());
  EXPECT_TRUE(torch::all(r.output[0][0][2] == 0).item<bool>());
  EXPECT_FALSE(torch::any(torch::isnan(r.output)).item<bool>());
  const torch::Tensor fused = fusedScaledDotProductAttention(q, k, v, mask);
  EXPECT_TRUE(torch::allclose(fused, r.output, 1e-5, 1e-5));
}

TEST(ScaledDotProductAttention, FusedPathEqualsExplicitPath) {
  if (!kFusedAttentionAvailable) {
    GTEST_SKIP() << "LibTorch " << TORCH_VERSION << " has no fused attention kernel";
  }
  torch::manual_seed(3);
  const auto q = torch::randn({2, 4, 9, 8}), k = torch::randn({2, 4, 9, 8}),
             v = torch::randn({2, 4, 9, 8});
  for (const torch::Tensor& mask : {torch::Tensor(), causalMask(9).view({1, 1, 9, 9})}) {
    const auto explicit_out = scaledDotProductAttention(q, k, v, mask, 0.0, false, false).output;
    const auto fused_out = fusedScaledDotProductAttention(q, k, v, mask);
    EXPECT_TRUE(torch::allclose(fused_out, explicit_out, 1e-5, 1e-5));
  }
}

TEST(ScaledDotProductAttention, GradientsMatchFiniteDifferences) {
  torch::manual_seed(4);
  const auto opts = torch::TensorOptions().dtype(torch::kDouble).requires_grad(true);
  torch::Tensor q = torch::randn({1, 2, 3, 4}, opts), k = torch::randn({1, 2, 5, 4}, opts),
                v = torch::randn({1, 2, 5, 4}, opts);
  torch::Tensor mask = torch::zeros({3, 5}, torch::kBool);
  mask.index_put_({1, 4}, true);
  // Loss with a random projection so every output element contributes differently.
  const torch::Tensor probe = torch::randn({1, 2, 3, 4}, torch::kDouble);
  auto loss_of = [&](const torch::Tensor& qq, const torch::Tensor& kk, const torch::Tensor& vv) {
    return (scaledDotProductAttention(qq, kk, vv, mask).output * probe).sum();
  };
  loss_of(q, k, v).backward();
  const double eps = 1e-6;
  torch::NoGradGuard no_grad;
  for (torch::Tensor* input : {&q, &k, &v}) {
    auto flat = input->view(-1);
    const auto analytic = input->grad().view(-1);
    for (int64_t i = 0; i < flat.numel(); ++i) {
      const double saved = flat[i].item<double>();
      flat[i].fill_(saved + eps);
      const double up = loss_of(q, k, v).item<double>();
      flat[i].fill_(saved - eps);
      const double down = loss_of(q, k, v).item<double>();
      flat[i].fill_(saved);
      EXPECT_NEAR(analytic[i].item<double>(), (up - down) / (2 * eps), 1e-7) << "element " << i;
    }
  }
}

TEST(AttentionMasks, CombineCausalAndPadding) {
  AttentionMasks masks;
  masks.causal = true;
  masks.key_padding_mask = torch::tensor({0, 0, 1}, torch::kBool).view({1, 3});
  const torch::Tensor m = combineMasks(masks, 3, 3, torch::kCPU);
  ASSERT_EQ(m.dim(), 4);
  const torch::Tensor expected =
      torch::tensor({0, 1, 1, 0, 0, 1, 0, 0, 1}, torch::kBool).view({1, 1, 3, 3});
  EXPECT_TRUE(torch::equal(m, expected));
  EXPECT_FALSE(combineMasks({}, 3, 3, torch::kCPU).defined());
}

}  // namespace
}  // namespace ascope
