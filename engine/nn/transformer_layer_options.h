#pragma once
#include <torch/arg.h>
#include <torch/nn/modules/normalization.h>

#include <cstdint>

#include "engine/nn/feed_forward.h"

namespace ascope {

/// Shared by encoder and decoder layers.
struct TransformerLayerOptions {
  TransformerLayerOptions(int64_t d_model, int64_t num_heads, int64_t d_ff)
      : d_model_(d_model), num_heads_(num_heads), d_ff_(d_ff) {}
  /// Model width.
  TORCH_ARG(int64_t, d_model);
  /// Attention heads; must divide d_model.
  TORCH_ARG(int64_t, num_heads);
  /// Hidden width of the feed-forward block.
  TORCH_ARG(int64_t, d_ff);
  /// Dropout on attention weights, sublayer outputs and inside the feed-forward block.
  TORCH_ARG(double, dropout) = 0.1;
  /// Feed-forward non-linearity.
  TORCH_ARG(Activation, activation) = Activation::kRelu;
  /// Pre-norm (x + f(norm(x)), trains without warm-up) or post-norm (norm(x + f(x)), the paper).
  TORCH_ARG(bool, norm_first) = true;
  /// LayerNorm epsilon.
  TORCH_ARG(double, layer_norm_eps) = 1e-5;
  /// Each residual branch (attention, feed-forward) multiplied by a learned scalar that starts at
  /// 0 (ReZero, Bachlechner et al. 2020): the layer starts as the identity and a branch joins only
  /// as far as its gradient takes the scalar.
  TORCH_ARG(bool, residual_gates) = false;
  /// Stochastic depth (Huang et al. 2016), in [0, 1): while training, each sample skips both
  /// residual branches of the layer with this probability; the kept ones are scaled by 1 / (1 - p).
  TORCH_ARG(double, drop_path) = 0.0;
};

/// The LayerNorm every sublayer of a layer with these options uses.
inline torch::nn::LayerNorm makeLayerNorm(const TransformerLayerOptions& o) {
  return torch::nn::LayerNorm(torch::nn::LayerNormOptions({o.d_model()}).eps(o.layer_norm_eps()));
}

}  // namespace ascope
