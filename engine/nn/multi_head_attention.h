#pragma once
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include <vector>

#include "engine/nn/attention_inputs.h"
#include "engine/nn/attention_masks.h"
#include "engine/nn/scaled_dot_product_attention.h"

namespace ascope {

struct MultiHeadAttentionOptions {
  MultiHeadAttentionOptions(int64_t embed_dim, int64_t num_heads)
      : embed_dim_(embed_dim), num_heads_(num_heads) {}
  /// Model width E; must be divisible by num_heads.
  TORCH_ARG(int64_t, embed_dim);
  /// Number of heads H; each head works in E / H dimensions.
  TORCH_ARG(int64_t, num_heads);
  /// Dropout on the attention weights during training.
  TORCH_ARG(double, dropout) = 0.0;
  /// Biases on the input and output projections.
  TORCH_ARG(bool, bias) = true;
};

/// Multi-head attention with one packed QKV projection, laid out exactly like
/// torch::nn::MultiheadAttention (in_proj_weight (3E, E) = [W_q; W_k; W_v], in_proj_bias (3E),
/// out_proj), so weights load from PyTorch checkpoints and the parity test can copy them across.
/// Batch-first. Per-head weights come back only when asked for; otherwise the fused kernel runs.
class MultiHeadAttentionImpl : public torch::nn::Module {
 public:
  explicit MultiHeadAttentionImpl(const MultiHeadAttentionOptions& options);

  void reset_parameters();

  /// Shape: query (B, Tq, E), key and value (B, Tk, E) → output (B, Tq, E) and, when need_weights,
  /// weights (B, H, Tq, Tk) (not averaged over heads).
  AttentionResult forward(const Tensor& query, const Tensor& key, const Tensor& value,
                          const AttentionMasks& masks = {}, bool need_weights = false);

  const MultiHeadAttentionOptions& options() const { return options_; }

  /// Head ablation: the outputs of the heads whose entry is false are zeroed after attention and
  /// before the heads are merged and projected, on both paths; their weights are still returned.
  /// Empty (the default) keeps every head and costs nothing. Throws std::invalid_argument unless
  /// `keep` is empty or has num_heads entries. Plain state, neither parameter nor buffer, so it
  /// never reaches a checkpoint; it follows the module to any device.
  void setHeadMask(std::vector<bool> keep);
  const std::vector<bool>& headMask() const { return head_mask_; }

  /// While set, each forward pass leaves its query, key, value and combined mask in `sink` (not
  /// owned; the last pass wins); nullptr stops. Costs nothing when unset.
  void recordInputs(AttentionInputs* sink) { sink_ = sink; }
  int64_t headDim() const { return head_dim_; }

  Tensor in_proj_weight;
  Tensor in_proj_bias;
  torch::nn::Linear out_proj{nullptr};

 private:
  Tensor splitHeads(const Tensor& x) const;  // (B, T, E) → (B, H, T, E/H)
  /// `heads` (B, H, Tq, Dh) with the dropped heads' outputs set to exactly zero.
  Tensor gateHeads(const Tensor& heads);

  MultiHeadAttentionOptions options_;
  int64_t head_dim_;
  std::vector<bool> head_mask_;
  // (1, H, 1, 1) bool, true = dropped; rebuilt on the device of the heads it gates when the mask
  // or that device changes, so it needs no registration to follow the module.
  Tensor dropped_heads_;
  AttentionInputs* sink_ = nullptr;
};
TORCH_MODULE(MultiHeadAttention);

}  // namespace ascope
