// The head gate of MultiHeadAttention: a dropped head's output is zero before out_proj, on both
// the explicit and the fused path; no mask changes nothing, and the mask never reaches a
// checkpoint.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "engine/models/text_classifier.h"
#include "engine/nn/encoder_layer.h"
#include "engine/nn/multi_head_attention.h"
#include "engine/train/checkpoint.h"
#include "tests/engine/removed_at_exit.h"

namespace ascope {
namespace {

constexpr int64_t kBatch = 2, kLen = 5, kEmbed = 12, kHeads = 3, kHeadDim = kEmbed / kHeads;

MultiHeadAttention makeAttention() {
  torch::manual_seed(11);
  MultiHeadAttention attention(MultiHeadAttentionOptions(kEmbed, kHeads));
  torch::NoGradGuard no_grad;
  // Non-zero biases, so that a dropped head's zero still passes through out_proj's bias.
  attention->in_proj_bias.uniform_(-0.5, 0.5);
  attention->out_proj->bias.uniform_(-0.5, 0.5);
  attention->eval();
  return attention;
}

/// The head outputs by hand, `dropped` head's slice zeroed, then merged and projected.
torch::Tensor byHand(MultiHeadAttention& attention, const torch::Tensor& x,
                     const AttentionMasks& masks, int64_t dropped) {
  const auto w = attention->in_proj_weight.chunk(3, 0);
  const auto b = attention->in_proj_bias.chunk(3, 0);
  auto split = [](const torch::Tensor& t) {
    return t.view({kBatch, kLen, kHeads, kHeadDim}).transpose(1, 2);  // (B, H, T, Dh)
  };
  const torch::Tensor q = split(torch::matmul(x, w[0].t()) + b[0]);
  const torch::Tensor k = split(torch::matmul(x, w[1].t()) + b[1]);
  const torch::Tensor v = split(torch::matmul(x, w[2].t()) + b[2]);
  const torch::Tensor mask = combineMasks(masks, kLen, kLen, x.device());
  torch::Tensor heads = scaledDotProductAttention(q, k, v, mask).output.clone();  // (B, H, T, Dh)
  heads.select(1, dropped).zero_();
  const torch::Tensor merged = heads.transpose(1, 2).reshape({kBatch, kLen, kEmbed});
  return attention->out_proj(merged);
}

TEST(HeadMask, NoMaskAndAllHeadsKeptAreBitIdentical) {
  MultiHeadAttention attention = makeAttention();
  const torch::Tensor x = torch::randn({kBatch, kLen, kEmbed});
  for (bool need_weights : {false, true}) {
    const AttentionResult plain = attention->forward(x, x, x, {}, need_weights);
    attention->setHeadMask({true, true, true});
    const AttentionResult all_kept = attention->forward(x, x, x, {}, need_weights);
    attention->setHeadMask({false, true, true});
    const AttentionResult dropped = attention->forward(x, x, x, {}, need_weights);
    attention->setHeadMask({});
    const AttentionResult cleared = attention->forward(x, x, x, {}, need_weights);
    EXPECT_TRUE(torch::equal(all_kept.output, plain.output)) << need_weights;
    EXPECT_TRUE(torch::equal(cleared.output, plain.output)) << need_weights;
    EXPECT_FALSE(torch::allclose(dropped.output, plain.output)) << need_weights;
  }
}

TEST(HeadMask, DroppedHeadEqualsZeroingItsSliceByHand) {
  MultiHeadAttention attention = makeAttention();
  const torch::Tensor x = torch::randn({kBatch, kLen, kEmbed});
  torch::Tensor padding = torch::zeros({kBatch, kLen}, torch::kBool);
  padding.index_put_({1, torch::indexing::Slice(3)}, true);
  AttentionMasks masks;
  masks.key_padding_mask = padding;
  torch::NoGradGuard no_grad;
  for (int64_t head = 0; head < kHeads; ++head) {
    std::vector<bool> keep(kHeads, true);
    keep[head] = false;
    attention->setHeadMask(keep);
    const torch::Tensor expected = byHand(attention, x, masks, head);
    const AttentionResult explicit_path = attention->forward(x, x, x, masks, /*need_weights=*/true);
    const AttentionResult fused_path = attention->forward(x, x, x, masks, /*need_weights=*/false);
    EXPECT_TRUE(torch::allclose(explicit_path.output, expected, 1e-5, 1e-6)) << head;
    EXPECT_TRUE(torch::allclose(fused_path.output, expected, 1e-5, 1e-6)) << head;
    // The weights of a dropped head are still what it attended to: only its output is gated.
    attention->setHeadMask({});
    const AttentionResult whole = attention->forward(x, x, x, masks, true);
    EXPECT_TRUE(torch::equal(explicit_path.weights, whole.weights));
  }
}

TEST(HeadMask, EveryHeadDroppedLeavesOnlyTheOutputBias) {
  MultiHeadAttention attention = makeAttention();
  attention->setHeadMask({false, false, false});
  const torch::Tensor x = torch::randn({kBatch, kLen, kEmbed});
  for (bool need_weights : {false, true}) {
    const torch::Tensor out = attention->forward(x, x, x, {}, need_weights).output;  // (B, T, E)
    // out_proj of zeros is its bias, at every position of every sample.
    EXPECT_TRUE(torch::equal(out, attention->out_proj->bias.expand({kBatch, kLen, kEmbed})));
  }
}

TEST(HeadMask, WrongLengthIsRefusedWithTheCounts) {
  MultiHeadAttention attention = makeAttention();
  try {
    attention->setHeadMask({true, false});
    FAIL() << "a mask of 2 entries for 3 heads was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "head mask has 2 entries; this attention has 3 heads");
  }
  EXPECT_TRUE(attention->headMask().empty());  // the refused mask did not stick
}

TEST(HeadMask, IsNeitherParameterNorBufferNorInACheckpoint) {
  torch::manual_seed(5);
  TextClassifierConfig config;
  config.vocab_size = 20, config.d_model = 16, config.heads = 2, config.d_ff = 32;
  config.max_len = 8;
  TextClassifier model(config);
  MultiHeadAttention& attention = model->layers[0]->as<EncoderLayer>()->self_attn;
  const std::size_t parameters = model->named_parameters().size();
  const std::size_t buffers = model->named_buffers().size();
  attention->setHeadMask({false, true});
  EXPECT_EQ(model->named_parameters().size(), parameters);
  EXPECT_EQ(model->named_buffers().size(), buffers);
  for (const auto& item : attention->named_buffers()) ADD_FAILURE() << "buffer " << item.key();

  // Moving the module keeps the gate working on the new dtype (and device).
  model->to(torch::kDouble);
  const torch::Tensor ids = torch::tensor({{3, 4, 5, 6}}, torch::kLong);
  model->eval();
  const torch::Tensor masked = model(ids);
  EXPECT_EQ(masked.scalar_type(), torch::kDouble);
  model->to(torch::kFloat);

  const std::string path = testing::freshTempPath("ascope_head_mask_test") + ".pt";
  testing::removedAtExit(path);
  ASSERT_TRUE(saveCheckpoint(path, *model, nullptr, {}).ok());
  torch::manual_seed(6);
  TextClassifier loaded(config);
  ASSERT_TRUE(loadCheckpoint(path, *loaded, nullptr).ok());
  loaded->eval();
  EXPECT_TRUE(loaded->layers[0]->as<EncoderLayer>()->self_attn->headMask().empty());
  // The loaded model runs every head: it matches the original once that one's gate is off.
  attention->setHeadMask({});
  EXPECT_TRUE(torch::allclose(loaded(ids), model(ids)));
  EXPECT_FALSE(torch::allclose(masked.to(torch::kFloat), model(ids), 1e-6, 1e-7));
}

}  // namespace
}  // namespace ascope
