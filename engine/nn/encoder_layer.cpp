#include "engine/nn/encoder_layer.h"

namespace ascope {
EncoderLayerImpl::EncoderLayerImpl(const TransformerLayerOptions& o) : norm_first_(o.norm_first()) {
  self_attn = register_module(
      "self_attn", MultiHeadAttention(
                       MultiHeadAttentionOptions(o.d_model(), o.num_heads()).dropout(o.dropout())));
  feed_forward = register_module("feed_forward",
                                 FeedForward(o.d_model(), o.d_ff(), o.activation(), o.dropout()));
  norm1 = register_module("norm1", makeLayerNorm(o));
  norm2 = register_module("norm2", makeLayerNorm(o));
  dropout1 = register_module("dropout1", HashDropout(o.dropout()));
  dropout2 = register_module("dropout2", HashDropout(o.dropout()));
}

Tensor EncoderLayerImpl::forward(const Tensor& x, const AttentionMasks& masks, Tensor* attention) {
  auto attend = [&](const Tensor& h) {
    AttentionResult r = self_attn(h, h, h, masks, attention != nullptr);
    if (attention != nullptr) *attention = r.weights;  // (B, H, T, T)
    return dropout1(r.output);
  };
  Tensor out;
  if (norm_first_) {
    out = x + attend(norm1(x));
    out = out + dropout2(feed_forward(norm2(out)));
  } else {
    out = norm1(x + attend(x));
    out = norm2(out + dropout2(feed_forward(out)));
  }
  return out;  // (B, T, d)
}

}  // namespace ascope
