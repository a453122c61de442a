// splitLinear / splitMatmul against at::linear / at::matmul: same products and same gradients,
// whether the product is split across the two threads or falls back to LibTorch's.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "engine/nn/split_matmul.h"
#include "two_intra_op_threads.h"

namespace ascope {
namespace {

using SplitMatmulTest = TwoIntraOpThreads;

Tensor leafCopy(const Tensor& t) {
  return t.detach().clone().requires_grad_(t.requires_grad());
}

/// Within `relative` of the largest value of `expected`.
void expectProductClose(const Tensor& actual, const Tensor& expected, const std::string& what,
                        double relative = 1e-5) {
  ASSERT_TRUE(actual.defined()) << what;
  ASSERT_TRUE(expected.defined()) << what;
  ASSERT_EQ(actual.sizes(), expected.sizes()) << what;
  const double scale = expected.abs().max().item<double>();
  EXPECT_TRUE(torch::allclose(actual, expected, relative, relative * scale))
      << what << ": max difference " << (actual - expected).abs().max().item<double>()
      << " at scale " << scale;
}

/// Whether the product went through the engine's own autograd function (split across threads)
/// rather than LibTorch's.
bool tookSplitPath(const Tensor& y, const char* function) {
  return y.grad_fn() != nullptr && y.grad_fn()->name().find(function) != std::string::npos;
}

void expectLinearParity(const std::vector<int64_t>& x_sizes, int64_t out, bool with_bias,
                        bool split_expected) {
  const std::string what = std::string(with_bias ? "with" : "without") + " bias, x " +
                           c10::str(c10::IntArrayRef(x_sizes));
  torch::manual_seed(11);
  const int64_t in = x_sizes.back();
  const Tensor x = torch::randn(x_sizes).requires_grad_();
  const Tensor w = (torch::randn({out, in}) / std::sqrt(static_cast<double>(in))).requires_grad_();
  const Tensor b = with_bias ? torch::randn({out}).requires_grad_() : Tensor();
  const Tensor x_ref = leafCopy(x), w_ref = leafCopy(w);
  const Tensor b_ref = with_bias ? leafCopy(b) : Tensor();

  const Tensor y = splitLinear(x, w, b);
  const Tensor y_ref = at::linear(x_ref, w_ref, b_ref);
  EXPECT_EQ(tookSplitPath(y, "SplitLinear"), split_expected) << what;
  expectProductClose(y, y_ref, what + ": output");

  const Tensor upstream = torch::randn(y_ref.sizes());
  (y * upstream).sum().backward();
  (y_ref * upstream).sum().backward();
  expectProductClose(x.grad(), x_ref.grad(), what + ": grad x");
  expectProductClose(w.grad(), w_ref.grad(), what + ": grad weight");
  if (with_bias) expectProductClose(b.grad(), b_ref.grad(), what + ": grad bias");
}

void expectSplitLinearParity(bool with_bias) {
  expectLinearParity({8, 300, 256}, 512, with_bias, /*split_expected=*/true);
  // 2,107 rows: the two parts are 1,054 and 1,053 rows.
  expectLinearParity({7, 301, 256}, 384, with_bias, /*split_expected=*/true);
  expectLinearParity({4096, 256}, 256, with_bias, /*split_expected=*/true);
}

TEST_F(SplitMatmulTest, SplitLinearMatchesLinearWhenSplit) {
  expectSplitLinearParity(true);
}

// As MultiHeadAttentionOptions::bias(false) calls it.
TEST_F(SplitMatmulTest, SplitLinearWithoutBiasMatchesLinearWhenSplit) {
  expectSplitLinearParity(false);
}

TEST_F(SplitMatmulTest, SmallLinearFallsBackAndMatches) {
  for (bool with_bias : {true, false}) {
    expectLinearParity({2, 3, 4}, 5, with_bias, /*split_expected=*/false);
    expectLinearParity({4}, 3, with_bias, /*split_expected=*/false);
  }
}

TEST_F(SplitMatmulTest, OneThreadFallsBack) {
  at::set_num_threads(1);
  expectLinearParity({8, 300, 256}, 512, /*with_bias=*/true, /*split_expected=*/false);
}

// Multi-head attention projects with row slices of one in_proj parameter: each slice's gradient
// must land in its own rows of the parent, and nowhere else.
TEST_F(SplitMatmulTest, NarrowedWeightGetsItsGradientInTheParentsRows) {
  constexpr int64_t kEmbed = 256;
  torch::manual_seed(12);
  const Tensor in_proj = (torch::randn({3 * kEmbed, kEmbed}) / 16).requires_grad_();
  const Tensor in_bias = torch::randn({3 * kEmbed}).requires_grad_();
  const Tensor x = torch::randn({8, 300, kEmbed}).requires_grad_();
  const Tensor in_proj_ref = leafCopy(in_proj), in_bias_ref = leafCopy(in_bias),
               x_ref = leafCopy(x);

  // The key rows only, then the key and value rows together.
  const Tensor k =
      splitLinear(x, in_proj.narrow(0, kEmbed, kEmbed), in_bias.narrow(0, kEmbed, kEmbed));
  const Tensor k_ref = at::linear(x_ref, in_proj_ref.narrow(0, kEmbed, kEmbed),
                                  in_bias_ref.narrow(0, kEmbed, kEmbed));
  ASSERT_TRUE(tookSplitPath(k, "SplitLinear"));
  expectProductClose(k, k_ref, "k");
  const Tensor kv = splitLinear(x * 0.5, in_proj.narrow(0, kEmbed, 2 * kEmbed),
                                in_bias.narrow(0, kEmbed, 2 * kEmbed));
  const Tensor kv_ref = at::linear(x_ref * 0.5, in_proj_ref.narrow(0, kEmbed, 2 * kEmbed),
                                   in_bias_ref.narrow(0, kEmbed, 2 * kEmbed));
  ASSERT_TRUE(tookSplitPath(kv, "SplitLinear"));

  const Tensor up_k = torch::randn(k.sizes()), up_kv = torch::randn(kv.sizes());
  ((k * up_k).sum() + (kv * up_kv).sum()).backward();
  ((k_ref * up_k).sum() + (kv_ref * up_kv).sum()).backward();
  expectProductClose(in_proj.grad(), in_proj_ref.grad(), "in_proj grad");
  expectProductClose(in_bias.grad(), in_bias_ref.grad(), "in_proj bias grad");
  expectProductClose(x.grad(), x_ref.grad(), "x grad");
  // The query rows were not used.
  EXPECT_TRUE(torch::equal(in_proj.grad().narrow(0, 0, kEmbed), torch::zeros({kEmbed, kEmbed})));
  EXPECT_TRUE(torch::equal(in_bias.grad().narrow(0, 0, kEmbed), torch::zeros({kEmbed})));
  // The value rows got kv's share only: its upstream's second half against x/2.
  expectProductClose(in_proj.grad().narrow(0, 2 * kEmbed, kEmbed),
                     at::matmul(up_kv.narrow(-1, kEmbed, kEmbed).reshape({-1, kEmbed}).t(),
                                (x_ref.detach() * 0.5).reshape({-1, kEmbed})),
                     "value rows");
}

TEST_F(SplitMatmulTest, InputsWithoutGradientWork) {
  torch::manual_seed(13);
  const Tensor x = torch::randn({8, 300, 256});
  const Tensor w = torch::randn({512, 256}) / 16;
  const Tensor b = torch::randn({512});
  const Tensor y = splitLinear(x, w, b);
  EXPECT_FALSE(y.requires_grad());
  expectProductClose(y, at::linear(x, w, b), "no gradients");

  // A frozen weight: only x gets a gradient.
  const Tensor xg = x.clone().requires_grad_();
  const Tensor xg_ref = x.clone().requires_grad_();
  const Tensor y2 = splitLinear(xg, w, b);
  ASSERT_TRUE(tookSplitPath(y2, "SplitLinear"));
  const Tensor upstream = torch::randn(y2.sizes());
  (y2 * upstream).sum().backward();
  (at::linear(xg_ref, w, b) * upstream).sum().backward();
  expectProductClose(xg.grad(), xg_ref.grad(), "grad x, frozen weight");
  EXPECT_FALSE(w.grad().defined());

  // Under NoGradGuard, as in evaluation.
  torch::NoGradGuard no_grad;
  const Tensor wg = w.clone().requires_grad_();
  expectProductClose(splitLinear(x, wg, b), at::linear(x, w, b), "no-grad mode");
}

void expectMatmulParity(const Tensor& a_leaf, const Tensor& b_leaf,
                        const std::function<Tensor(const Tensor&)>& view_a,
                        const std::function<Tensor(const Tensor&)>& view_b, bool split_expected,
                        const std::string& what) {
  const Tensor a_ref = leafCopy(a_leaf), b_ref = leafCopy(b_leaf);
  const Tensor y = splitMatmul(view_a(a_leaf), view_b(b_leaf));
  const Tensor y_ref = at::matmul(view_a(a_ref), view_b(b_ref));
  EXPECT_EQ(tookSplitPath(y, "SplitMatmul"), split_expected) << what;
  expectProductClose(y, y_ref, what + ": output");
  const Tensor upstream = torch::randn(y_ref.sizes());
  (y * upstream).sum().backward();
  (y_ref * upstream).sum().backward();
  expectProductClose(a_leaf.grad(), a_ref.grad(), what + ": grad a");
  expectProductClose(b_leaf.grad(), b_ref.grad(), what + ": grad b");
}

const auto kAsIs = [](const Tensor& t) { return t; };
const auto kTransposed = [](const Tensor& t) { return t.transpose(-2, -1); };

TEST_F(SplitMatmulTest, BatchedMatmulMatchesMatmul) {
  torch::manual_seed(14);
  // Attention scores: (batch, heads, T, d) · (batch, heads, d, T).
  expectMatmulParity(torch::randn({16, 4, 65, 32}).requires_grad_(),
                     torch::randn({16, 4, 32, 65}).requires_grad_(), kAsIs, kAsIs, true, "scores");
  // Scores times values: (batch, heads, T, T) · (batch, heads, T, d).
  expectMatmulParity(torch::randn({16, 4, 65, 65}).requires_grad_(),
                     torch::randn({16, 4, 65, 32}).requires_grad_(), kAsIs, kAsIs, true,
                     "weighted values");
  // An odd batch: parts of 2 and 1.
  expectMatmulParity(torch::randn({3, 200, 64}).requires_grad_(),
                     torch::randn({3, 64, 200}).requires_grad_(), kAsIs, kAsIs, true, "batch of 3");
}

TEST_F(SplitMatmulTest, TransposedViewsMatchMatmul) {
  torch::manual_seed(15);
  // q · kᵀ with kᵀ a transposed view, and both transposed.
  expectMatmulParity(torch::randn({16, 4, 65, 32}).requires_grad_(),
                     torch::randn({16, 4, 65, 32}).requires_grad_(), kAsIs, kTransposed, true,
                     "b transposed");
  expectMatmulParity(torch::randn({16, 4, 32, 65}).requires_grad_(),
                     torch::randn({16, 4, 65, 32}).requires_grad_(), kTransposed, kTransposed, true,
                     "both transposed");
  // Heads split off a (B, T, E) tensor: (B, T, H, d) transposed to (B, H, T, d).
  expectMatmulParity(
      torch::randn({16, 65, 4, 32}).requires_grad_(),
      torch::randn({16, 65, 4, 32}).requires_grad_(),
      [](const Tensor& t) { return t.transpose(1, 2); },
      [](const Tensor& t) {
        return t.permute({0, 2, 3, 1});
      },
      true, "head views");
}

TEST_F(SplitMatmulTest, OtherShapesFallBackToMatmul) {
  torch::manual_seed(16);
  expectMatmulParity(torch::randn({16, 65, 32}).requires_grad_(),
                     torch::randn({32, 65}).requires_grad_(), kAsIs, kAsIs, false, "3-D times 2-D");
  expectMatmulParity(torch::randn({16, 4, 65, 32}).requires_grad_(),
                     torch::randn({1, 4, 32, 65}).requires_grad_(), kAsIs, kAsIs, false,
                     "broadcast batch");
  expectMatmulParity(torch::randn({16, 4, 65, 32}).requires_grad_(),
                     torch::randn({16, 1, 32, 65}).requires_grad_(), kAsIs, kAsIs, false,
                     "broadcast heads");
  expectMatmulParity(torch::randn({2, 3, 4}).requires_grad_(),
                     torch::randn({2, 4, 5}).requires_grad_(), kAsIs, kAsIs, false, "small");
  expectMatmulParity(torch::randn({65, 32}).requires_grad_(),
                     torch::randn({32, 65}).requires_grad_(), kAsIs, kAsIs, false, "2-D");
}

TEST_F(SplitMatmulTest, DoubleTensorsFallBack) {
  torch::manual_seed(17);
  const auto f64 = torch::TensorOptions().dtype(torch::kDouble);
  expectMatmulParity(torch::randn({16, 4, 65, 32}, f64).requires_grad_(),
                     torch::randn({16, 4, 32, 65}, f64).requires_grad_(), kAsIs, kAsIs, false,
                     "double matmul");
  const Tensor x = torch::randn({8, 300, 256}, f64);
  const Tensor w = torch::randn({512, 256}, f64).requires_grad_();
  const Tensor y = splitLinear(x, w, torch::zeros({512}, f64));
  EXPECT_FALSE(tookSplitPath(y, "SplitLinear"));
  EXPECT_EQ(y.scalar_type(), torch::kDouble);
  EXPECT_TRUE(torch::equal(y, at::linear(x, w, torch::zeros({512}, f64))));
}

}  // namespace
}  // namespace ascope
