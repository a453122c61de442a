#include "engine/nn/decoder_layer.h"

namespace ascope {
namespace {

MultiHeadAttention makeAttention(const TransformerLayerOptions& o) {
  return MultiHeadAttention(
      MultiHeadAttentionOptions(o.d_model(), o.num_heads()).dropout(o.dropout()));
}

}  // namespace

DecoderLayerImpl::DecoderLayerImpl(const TransformerLayerOptions& o) : norm_first_(o.norm_first()) {
  self_attn = register_module("self_attn", makeAttention(o));
  cross_attn = register_module("cross_attn", makeAttention(o));
  feed_forward = register_module("feed_forward",
                                 FeedForward(o.d_model(), o.d_ff(), o.activation(), o.dropout()));
  norm1 = register_module("norm1", makeLayerNorm(o));
  norm2 = register_module("norm2", makeLayerNorm(o));
  norm3 = register_module("norm3", makeLayerNorm(o));
  dropout1 = register_module("dropout1", HashDropout(o.dropout()));
  dropout2 = register_module("dropout2", HashDropout(o.dropout()));
  dropout3 = register_module("dropout3", HashDropout(o.dropout()));
}

Tensor DecoderLayerImpl::forward(const Tensor& x, const Tensor& memory,
                                 const AttentionMasks& self_masks,
                                 const AttentionMasks& memory_masks, DecoderAttention* attention) {
  const bool capture = attention != nullptr;
  auto self_attend = [&](const Tensor& h) {
    AttentionResult r = self_attn(h, h, h, self_masks, capture);
    if (capture) attention->self_attention = r.weights;  // (B, H, Tt, Tt)
    return dropout1(r.output);
  };
  auto cross_attend = [&](const Tensor& h) {
    AttentionResult r = cross_attn(h, memory, memory, memory_masks, capture);
    if (capture) attention->cross_attention = r.weights;  // (B, H, Tt, Ts)
    return dropout2(r.output);
  };
  Tensor out;
  if (norm_first_) {
    out = x + self_attend(norm1(x));
    out = out + cross_attend(norm2(out));
    out = out + dropout3(feed_forward(norm3(out)));
  } else {
    out = norm1(x + self_attend(x));
    out = norm2(out + cross_attend(out));
    out = norm3(out + dropout3(feed_forward(out)));
  }
  return out;  // (B, Tt, d)
}

}  // namespace ascope
