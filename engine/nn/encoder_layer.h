#pragma once
#include <torch/nn/module.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>
#include "engine/nn/hash_dropout.h"

#include "engine/nn/feed_forward.h"
#include "engine/nn/multi_head_attention.h"
#include "engine/nn/transformer_layer_options.h"

namespace ascope {

/// Self-attention + feed-forward, each wrapped in a residual connection with LayerNorm before
/// (pre-norm) or after (post-norm). Unlike torch::nn::TransformerEncoderLayer it hands back the
/// attention weights when asked.
class EncoderLayerImpl : public torch::nn::Module {
 public:
  explicit EncoderLayerImpl(const TransformerLayerOptions& options);

  /// Shape: x (B, T, d) → (B, T, d). When `attention` is given it receives (B, H, T, T).
  Tensor forward(const Tensor& x, const AttentionMasks& masks = {}, Tensor* attention = nullptr);

  MultiHeadAttention self_attn{nullptr};
  FeedForward feed_forward{nullptr};
  torch::nn::LayerNorm norm1{nullptr};
  torch::nn::LayerNorm norm2{nullptr};
  HashDropout dropout1{nullptr};
  HashDropout dropout2{nullptr};
  /// The residual branches' learned scales ({1}, starting at 0); undefined without
  /// TransformerLayerOptions::residual_gates, so older checkpoints keep their tensors.
  Tensor attention_gate;
  Tensor feed_forward_gate;

  /// LayerNorm before each sublayer (pre-norm) rather than after.
  bool normFirst() const { return norm_first_; }

 private:
  /// A residual branch's output, gated and (in training) kept or dropped per sample by `keep`.
  Tensor branch(const Tensor& output, const Tensor& gate, const Tensor& keep) const;

  bool norm_first_;
  double drop_path_;
};
TORCH_MODULE(EncoderLayer);

}  // namespace ascope
