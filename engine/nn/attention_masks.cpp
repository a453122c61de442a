#include "engine/nn/attention_masks.h"

#include <stdexcept>
#include <string>

namespace ascope {

Tensor causalMask(int64_t length, const at::Device& device) {
  return at::ones({length, length}, at::TensorOptions().dtype(at::kBool).device(device)).triu(1);
}

Tensor keyPaddingMask(const Tensor& token_ids, int64_t pad_id) {
  return token_ids.eq(pad_id);
}

namespace {

// Lifts a mask to 4 dimensions (B|1, H|1, Tq, Tk) so masks of different ranks combine by broadcast.
Tensor toFourDims(const Tensor& mask) {
  switch (mask.dim()) {
    case 2:
      return mask.unsqueeze(0).unsqueeze(0);  // (1, 1, Tq, Tk)
    case 3:
      return mask.unsqueeze(1);  // (B, 1, Tq, Tk)
    case 4:
      return mask;
    default:
      throw std::invalid_argument("attention mask must have 2, 3 or 4 dimensions, got " +
                                  std::to_string(mask.dim()));
  }
}

}  // namespace

Tensor combineMasks(const AttentionMasks& masks, int64_t query_length, int64_t key_length,
                    const at::Device& device) {
  Tensor combined;
  auto merge = [&combined](const Tensor& m) {
    combined = combined.defined() ? combined.logical_or(m) : m;
  };
  if (masks.attn_mask.defined()) {
    Tensor m = masks.attn_mask;
    if (m.scalar_type() != at::kBool) {
      throw std::invalid_argument("attn_mask must be boolean (true = blocked)");
    }
    merge(toFourDims(m.to(device)));
  }
  if (masks.key_padding_mask.defined()) {
    merge(masks.key_padding_mask.to(device, at::kBool).unsqueeze(1).unsqueeze(1));  // (B, 1, 1, Tk)
  }
  if (masks.causal) {
    if (query_length != key_length) {
      throw std::invalid_argument("a causal mask needs as many queries as keys");
    }
    merge(causalMask(query_length, device).unsqueeze(0).unsqueeze(0));  // (1, 1, T, T)
  }
  return combined;
}

}  // namespace ascope
