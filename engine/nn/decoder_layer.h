#pragma once
#include <torch/nn/module.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>
#include "engine/nn/hash_dropout.h"

#include "engine/nn/feed_forward.h"
#include "engine/nn/multi_head_attention.h"
#include "engine/nn/transformer_layer_options.h"

namespace ascope {

/// Attention weights a decoder layer can hand back.
struct DecoderAttention {
  Tensor self_attention;   ///< (B, H, Tt, Tt), causal
  Tensor cross_attention;  ///< (B, H, Tt, Ts): target queries over source keys
};

/// Masked self-attention, cross-attention over the encoder memory, feed-forward; each with a
/// residual connection and LayerNorm (pre- or post-norm).
class DecoderLayerImpl : public torch::nn::Module {
 public:
  explicit DecoderLayerImpl(const TransformerLayerOptions& options);

  /// Shape: x (B, Tt, d), memory (B, Ts, d) → (B, Tt, d).
  /// `self_masks` usually has causal = true plus the target padding; `memory_masks` the source
  /// padding.
  Tensor forward(const Tensor& x, const Tensor& memory, const AttentionMasks& self_masks,
                 const AttentionMasks& memory_masks, DecoderAttention* attention = nullptr);

  MultiHeadAttention self_attn{nullptr};
  MultiHeadAttention cross_attn{nullptr};
  FeedForward feed_forward{nullptr};
  torch::nn::LayerNorm norm1{nullptr};
  torch::nn::LayerNorm norm2{nullptr};
  torch::nn::LayerNorm norm3{nullptr};
  HashDropout dropout1{nullptr};
  HashDropout dropout2{nullptr};
  HashDropout dropout3{nullptr};

  /// LayerNorm before each sublayer (pre-norm) rather than after.
  bool normFirst() const { return norm_first_; }

 private:
  bool norm_first_;
};
TORCH_MODULE(DecoderLayer);

}  // namespace ascope
