// Reference parity: our attention must match LibTorch's own MultiheadAttention loaded with the same
// weights, and the formula computed by hand.
#include <gtest/gtest.h>
#include <torch/nn/modules/activation.h>

#include <limits>

#include "engine/nn/multi_head_attention.h"

namespace ascope {
namespace {

constexpr int64_t kMhaBatch = 3, kMhaLen = 7, kMhaEmbed = 16, kMhaHeads = 4;

struct ParityPair {
  MultiHeadAttention ours{nullptr};
  torch::nn::MultiheadAttention reference{nullptr};
};

ParityPair makePair() {
  torch::manual_seed(7);
  ParityPair pair;
  pair.ours = MultiHeadAttention(MultiHeadAttentionOptions(kMhaEmbed, kMhaHeads));
  pair.reference =
      torch::nn::MultiheadAttention(torch::nn::MultiheadAttentionOptions(kMhaEmbed, kMhaHeads));
  // Same names, same layout: copying by name must cover every parameter.
  torch::NoGradGuard no_grad;
  auto reference_params = pair.reference->named_parameters();
  int copied = 0;
  for (auto& p : pair.ours->named_parameters()) {
    auto* source = reference_params.find(p.key());
    if (source == nullptr)
      ADD_FAILURE() << "reference has no parameter " << p.key();
    else {
      // Random biases too, so a wrong bias slice would show.
      source->uniform_(-0.5, 0.5);
      p.value().copy_(*source);
      ++copied;
    }
  }
  EXPECT_EQ(copied, static_cast<int>(reference_params.size()));
  pair.ours->eval();
  pair.reference->eval();
  return pair;
}

void expectParity(ParityPair& pair, const torch::Tensor& x, const AttentionMasks& ours_masks,
                  const torch::Tensor& ref_attn_mask, const torch::Tensor& ref_padding) {
  AttentionResult ours = pair.ours(x, x, x, ours_masks, /*need_weights=*/true);
  const torch::Tensor seq_first = x.transpose(0, 1);  // reference is (T, B, E)
  auto [ref_out, ref_weights] =
      pair.reference(seq_first, seq_first, seq_first, ref_padding, /*need_weights=*/true,
                     ref_attn_mask, /*average_attn_weights=*/false);
  ASSERT_EQ(ours.weights.sizes(), (std::vector<int64_t>{kMhaBatch, kMhaHeads, kMhaLen, kMhaLen}));
  EXPECT_TRUE(torch::allclose(ours.output, ref_out.transpose(0, 1), 1e-5, 1e-5));
  EXPECT_TRUE(torch::allclose(ours.weights, ref_weights, 1e-5, 1e-5));
  // The fused / weight-less path must give the same output.
  AttentionResult fast = pair.ours(x, x, x, ours_masks, /*need_weights=*/false);
  EXPECT_FALSE(fast.weights.defined());
  EXPECT_TRUE(torch::allclose(fast.output, ours.output, 1e-5, 1e-5));
}

TEST(MultiHeadAttention, MatchesTorchWithoutMask) {
  ParityPair pair = makePair();
  const torch::Tensor x = torch::randn({kMhaBatch, kMhaLen, kMhaEmbed});
  expectParity(pair, x, {}, {}, {});
}

TEST(MultiHeadAttention, MatchesTorchWithCausalMask) {
  ParityPair pair = makePair();
  const torch::Tensor x = torch::randn({kMhaBatch, kMhaLen, kMhaEmbed});
  AttentionMasks masks;
  masks.causal = true;
  // LibTorch 1.13's C++ MultiheadAttention adds attn_mask to the scores, so it gets the additive
  // form of the same mask.
  const torch::Tensor additive =
      torch::zeros({kMhaLen, kMhaLen})
          .masked_fill(causalMask(kMhaLen), -std::numeric_limits<float>::infinity());
  expectParity(pair, x, masks, additive, {});
}

TEST(MultiHeadAttention, MatchesTorchWithKeyPadding) {
  ParityPair pair = makePair();
  const torch::Tensor x = torch::randn({kMhaBatch, kMhaLen, kMhaEmbed});
  torch::Tensor padding = torch::zeros({kMhaBatch, kMhaLen}, torch::kBool);
  padding.index_put_({1, torch::indexing::Slice(4)}, true);
  padding.index_put_({2, torch::indexing::Slice(6)}, true);
  AttentionMasks masks;
  masks.key_padding_mask = padding;
  expectParity(pair, x, masks, {}, padding);
}

TEST(MultiHeadAttention, MatchesTorchForCrossAttention) {
  ParityPair pair = makePair();
  const torch::Tensor q = torch::randn({kMhaBatch, 5, kMhaEmbed});
  const torch::Tensor memory = torch::randn({kMhaBatch, kMhaLen, kMhaEmbed});
  AttentionResult ours = pair.ours->forward(q, memory, memory, {}, true);
  auto [ref_out, ref_weights] = pair.reference->forward(
      q.transpose(0, 1), memory.transpose(0, 1), memory.transpose(0, 1), {}, true, {}, false);
  EXPECT_TRUE(torch::allclose(ours.output, ref_out.transpose(0, 1), 1e-5, 1e-5));
  EXPECT_TRUE(torch::allclose(ours.weights, ref_weights, 1e-5, 1e-5));
  EXPECT_EQ(ours.weights.sizes(), (std::vector<int64_t>{kMhaBatch, kMhaHeads, 5, kMhaLen}));
}

TEST(MultiHeadAttention, OneHeadEqualsTheFormulaByHand) {
  torch::manual_seed(3);
  MultiHeadAttention attention(MultiHeadAttentionOptions(8, 1));
  attention->eval();
  const torch::Tensor x = torch::randn({2, 5, 8});
  AttentionResult r = attention->forward(x, x, x, {}, true);

  const auto w = attention->in_proj_weight.chunk(3, 0);
  const auto b = attention->in_proj_bias.chunk(3, 0);
  const torch::Tensor q = torch::matmul(x, w[0].t()) + b[0];  // (B, T, D)
  const torch::Tensor k = torch::matmul(x, w[1].t()) + b[1];
  const torch::Tensor v = torch::matmul(x, w[2].t()) + b[2];
  const torch::Tensor scores = torch::einsum("btd,bsd->bts", {q, k}) / std::sqrt(8.0);
  const torch::Tensor weights = torch::softmax(scores, -1);
  const torch::Tensor heads = torch::einsum("bts,bsd->btd", {weights, v});
  const torch::Tensor expected = attention->out_proj(heads);
  EXPECT_TRUE(torch::allclose(r.weights.squeeze(1), weights, 1e-6, 1e-6));
  EXPECT_TRUE(torch::allclose(r.output, expected, 1e-5, 1e-5));
}

TEST(MultiHeadAttention, CausalLayerIgnoresFutureTokens) {
  torch::manual_seed(11);
  MultiHeadAttention attention(MultiHeadAttentionOptions(16, 4));
  attention->eval();
  torch::Tensor x = torch::randn({1, 8, 16});
  AttentionMasks masks;
  masks.causal = true;
  const torch::Tensor before = attention(x, x, x, masks, true).output;
  torch::Tensor changed = x.clone();
  changed.index_put_({0, torch::indexing::Slice(5)}, torch::randn({3, 16}) * 10);
  const torch::Tensor after = attention(changed, changed, changed, masks, true).output;
  using torch::indexing::Slice;
  EXPECT_TRUE(
      torch::allclose(before.index({0, Slice(0, 5)}), after.index({0, Slice(0, 5)}), 1e-6, 1e-6));
  // and the future really did change something, so the check above can fail.
  EXPECT_FALSE(torch::allclose(before.index({0, Slice(5)}), after.index({0, Slice(5)})));
}

TEST(MultiHeadAttention, RejectsEmbedDimNotDivisibleByHeads) {
  try {
    MultiHeadAttention attention(MultiHeadAttentionOptions(10, 4));
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("embed_dim 10"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ascope
