#pragma once
#include <torch/nn/cloneable.h>
#include <torch/nn/pimpl.h>

namespace ascope {

using at::Tensor;

/// Dropout whose keep-or-drop decision for an element is a hash of (seed, its coordinates).
/// LibTorch 1.13 draws a CPU dropout mask one element at a time from a Mersenne Twister: 10 % of
/// an IMDB step and more of a ViT step, whose every attention map is dropped out. The hash is
/// computed in parallel and its result does not depend on the number of threads. The seed is
/// drawn from LibTorch's default generator, so torch::manual_seed still makes a run repeatable.
/// Other devices and dtypes (and p = 1) take at::dropout.
///
/// Coordinates, not the flat index: the element (b, h, q, k) of a batch's attention weights gets
/// the same decision whatever the batch's padded length, and the first coordinate counts from
/// the BatchShard's first sample (engine/nn/batch_shard.h). So a rank of a data-parallel job
/// that trains samples 16..31 of a batch, trimmed to its own longest review, drops what one
/// process training the whole batch drops for those samples. The first dimension must be the
/// batch's (or batch × something, as (B·H, T, T)) while a shard is set.
Tensor hashDropout(const Tensor& x, double p, bool training);

/// A drop-in module for HashDropout: no parameters, no buffers, so checkpoints are the same.
class HashDropoutImpl : public torch::nn::Cloneable<HashDropoutImpl> {
 public:
  explicit HashDropoutImpl(double p = 0.5);
  void reset() override {}
  Tensor forward(const Tensor& x);
  double p() const { return p_; }

 private:
  double p_;
};
TORCH_MODULE(HashDropout);

}  // namespace ascope
