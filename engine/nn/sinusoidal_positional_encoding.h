#pragma once
#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>
#include "engine/nn/hash_dropout.h"
#include "engine/nn/position_sum.h"

namespace ascope {

using at::Tensor;

/// The fixed encoding of "Attention Is All You Need":
///   PE(pos, 2i) = sin(pos / 10000^(2i/d)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/d)).
/// Stored as a buffer (not a parameter), so it is saved with the model but never trained.
class SinusoidalPositionalEncodingImpl : public torch::nn::Module {
 public:
  SinusoidalPositionalEncodingImpl(int64_t d_model, int64_t max_len, double dropout = 0.0);

  /// Shape: x (B, T, d_model) → x + PE[:T], then dropout. T must not exceed max_len.
  Tensor forward(const Tensor& x);

  /// (max_len, d_model), for plotting.
  const Tensor& matrix() const { return pe_; }

  /// While set, each forward pass appends its addends to `sink` (not owned); nullptr stops.
  void recordSums(PositionSums* sink) { sink_ = sink; }

 private:
  Tensor pe_;
  HashDropout dropout_{nullptr};
  PositionSums* sink_ = nullptr;
};
TORCH_MODULE(SinusoidalPositionalEncoding);

}  // namespace ascope
