#pragma once
#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>

#include "engine/nn/position_sum.h"

namespace ascope {

using at::Tensor;

/// A learned table of position vectors (ViT, BERT). Initialised N(0, 0.02²).
class LearnedPositionEmbeddingImpl : public torch::nn::Module {
 public:
  LearnedPositionEmbeddingImpl(int64_t num_positions, int64_t d_model);

  /// Shape: x (B, T, d_model) → x + P[:T]. T must not exceed num_positions.
  Tensor forward(const Tensor& x);

  /// (num_positions, d_model), for plotting.
  const Tensor& matrix() const { return weight; }

  /// While set, each forward pass appends its addends to `sink` (not owned); nullptr stops.
  void recordSums(PositionSums* sink) { sink_ = sink; }

  Tensor weight;

 private:
  PositionSums* sink_ = nullptr;
};
TORCH_MODULE(LearnedPositionEmbedding);

}  // namespace ascope
