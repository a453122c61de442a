#pragma once
#include <ATen/ATen.h>
#include <torch/version.h>

namespace ascope {

using at::Tensor;

// LibTorch 2.0 brought a fused kernel (flash / memory-efficient / math); 1.13 has none.
#if TORCH_VERSION_MAJOR >= 2
inline constexpr bool kFusedAttentionAvailable = true;
#else
inline constexpr bool kFusedAttentionAvailable = false;
#endif

struct AttentionResult {
  Tensor output;   ///< (B, H, Tq, Dv)
  Tensor weights;  ///< (B, H, Tq, Tk), undefined unless requested
};

/// The formula from the paper, spelled out: softmax(Q Kᵀ / √d_k + mask) V.
/// Shape: q (B, H, Tq, D), k (B, H, Tk, D), v (B, H, Tk, Dv); mask bool broadcastable to
/// (B, H, Tq, Tk), true = blocked. A query row whose keys are all blocked gets all-zero weights
/// (instead of the NaN a plain softmax gives). Dropout applies to the weights used for the output;
/// the returned weights are the ones before dropout, the ones worth looking at.
AttentionResult scaledDotProductAttention(const Tensor& q, const Tensor& k, const Tensor& v,
                                          const Tensor& mask = {}, double dropout_p = 0.0,
                                          bool training = false, bool need_weights = true);

/// Same output as scaledDotProductAttention without weights, through the fused kernel when this
/// LibTorch has one; falls back to the explicit path otherwise, and for dropout on the CPU (whose
/// hashed decisions a data-parallel job relies on).
Tensor fusedScaledDotProductAttention(const Tensor& q, const Tensor& k, const Tensor& v,
                                      const Tensor& mask = {}, double dropout_p = 0.0,
                                      bool training = false);

}  // namespace ascope
