#pragma once
// Mask convention used everywhere in the engine, the same as torch::nn::MultiheadAttention's
// boolean masks: `true` means "this query may NOT look at this key". Masks broadcast to (B, H, Tq,
// Tk).
#include <ATen/ATen.h>

namespace ascope {

using at::Tensor;

/// What a query may not attend to. Any field may be undefined.
struct AttentionMasks {
  /// (Tq, Tk), (B, Tq, Tk) or (B, H, Tq, Tk); true = blocked.
  Tensor attn_mask;
  /// (B, Tk); true = the key is padding.
  Tensor key_padding_mask;
  /// Query i may only see keys j <= i (decoder self-attention).
  bool causal = false;
};

/// (T, T) bool, true above the diagonal: position i must not see the future j > i.
Tensor causalMask(int64_t length, const at::Device& device = at::kCPU);

/// (B, T) bool from token ids: true where the id equals `pad_id`.
Tensor keyPaddingMask(const Tensor& token_ids, int64_t pad_id);

/// Merges the three masks into one bool mask broadcastable to (B, H, Tq, Tk), or an undefined
/// tensor when nothing is masked.
Tensor combineMasks(const AttentionMasks& masks, int64_t query_length, int64_t key_length,
                    const at::Device& device);

}  // namespace ascope
