// Tests that need a GPU; named *_CUDA and skipped when none is present.
#include <gtest/gtest.h>
#include <torch/cuda.h>

#include "engine/models/seq2seq_translator.h"
#include "engine/nn/multi_head_attention.h"

namespace ascope {
namespace {

#define SKIP_WITHOUT_CUDA() \
  if (!torch::cuda::is_available()) GTEST_SKIP() << "no CUDA device"

TEST(Cuda, MultiHeadAttentionMatchesCpu_CUDA) {
  SKIP_WITHOUT_CUDA();
  torch::manual_seed(0);
  MultiHeadAttention cpu(MultiHeadAttentionOptions(64, 8));
  cpu->eval();
  const torch::Tensor x = torch::randn({4, 33, 64});
  AttentionMasks masks;
  masks.causal = true;
  const AttentionResult expected = cpu(x, x, x, masks, true);
  cpu->to(torch::kCUDA);
  const torch::Tensor xg = x.to(torch::kCUDA);
  const AttentionResult with_weights = cpu(xg, xg, xg, masks, true);
  const AttentionResult fused = cpu(xg, xg, xg, masks, false);
  EXPECT_TRUE(torch::allclose(with_weights.output.cpu(), expected.output, 1e-4, 1e-4));
  EXPECT_TRUE(torch::allclose(with_weights.weights.cpu(), expected.weights, 1e-4, 1e-4));
  EXPECT_TRUE(torch::allclose(fused.output.cpu(), expected.output, 1e-4, 1e-4));
}

TEST(Cuda, TranslatorTrainsOnGpu_CUDA) {
  SKIP_WITHOUT_CUDA();
  torch::manual_seed(1);
  TranslatorConfig c;
  c.source_vocab_size = 100, c.target_vocab_size = 100, c.seq_len = 32;
  Seq2SeqTranslator model(c);
  model->to(torch::kCUDA);
  const auto opts = torch::TensorOptions().dtype(torch::kLong).device(torch::kCUDA);
  const torch::Tensor src = torch::randint(4, 100, {8, 20}, opts);
  const torch::Tensor tgt = torch::randint(4, 100, {8, 20}, opts);
  const torch::Tensor logits = model(src, tgt);
  EXPECT_EQ(logits.device().type(), torch::kCUDA);
  EXPECT_EQ(logits.sizes(), (std::vector<int64_t>{8, 20, 100}));
}

}  // namespace
}  // namespace ascope
