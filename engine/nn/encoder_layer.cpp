#include "engine/nn/encoder_layer.h"

#include <ATen/ops/ones.h>
#include <ATen/ops/zeros.h>

#include <stdexcept>
#include <string>

namespace ascope {
EncoderLayerImpl::EncoderLayerImpl(const TransformerLayerOptions& o)
    : norm_first_(o.norm_first()), drop_path_(o.drop_path()) {
  if (!(drop_path_ >= 0.0 && drop_path_ < 1.0)) {
    throw std::invalid_argument("encoder layer: drop_path must be in [0, 1), got " +
                                std::to_string(drop_path_));
  }
  self_attn = register_module(
      "self_attn", MultiHeadAttention(
                       MultiHeadAttentionOptions(o.d_model(), o.num_heads()).dropout(o.dropout())));
  feed_forward = register_module("feed_forward",
                                 FeedForward(o.d_model(), o.d_ff(), o.activation(), o.dropout()));
  norm1 = register_module("norm1", makeLayerNorm(o));
  norm2 = register_module("norm2", makeLayerNorm(o));
  dropout1 = register_module("dropout1", HashDropout(o.dropout()));
  dropout2 = register_module("dropout2", HashDropout(o.dropout()));
  if (o.residual_gates()) {
    attention_gate = register_parameter("attention_gate", at::zeros({1}));
    feed_forward_gate = register_parameter("feed_forward_gate", at::zeros({1}));
  }
}

Tensor EncoderLayerImpl::branch(const Tensor& output, const Tensor& gate,
                                const Tensor& keep) const {
  Tensor out = gate.defined() ? output * gate : output;
  return keep.defined() ? out * keep : out;
}

Tensor EncoderLayerImpl::forward(const Tensor& x, const AttentionMasks& masks, Tensor* attention) {
  auto attend = [&](const Tensor& h) {
    AttentionResult r = self_attn(h, h, h, masks, attention != nullptr);
    if (attention != nullptr) *attention = r.weights;  // (B, H, T, T)
    return dropout1(r.output);
  };
  // One keep-or-drop decision per sample for both branches; the hash makes it the same on resume
  // and in every shard of a data-parallel batch (engine/nn/hash_dropout.h).
  Tensor keep;
  if (drop_path_ > 0 && is_training()) {
    keep = hashDropout(at::ones({x.size(0), 1, 1}, x.options()), drop_path_, true);  // (B, 1, 1)
  }
  Tensor out;
  if (norm_first_) {
    out = x + branch(attend(norm1(x)), attention_gate, keep);
    out = out + branch(dropout2(feed_forward(norm2(out))), feed_forward_gate, keep);
  } else {
    out = norm1(x + branch(attend(x), attention_gate, keep));
    out = norm2(out + branch(dropout2(feed_forward(out)), feed_forward_gate, keep));
  }
  return out;  // (B, T, d)
}

}  // namespace ascope
