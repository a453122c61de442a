#pragma once
// The running mean of a model's parameters over the last steps of a run (an average of the
// weights along the end of the schedule, as checkpoint averaging does with saved checkpoints):
// a smoother point than the last step's that often generalises better. Kept on the model's
// device, as a mean updated in place (no growing sum to lose precision in).
#include <torch/nn/module.h>

#include <cstdint>
#include <vector>

namespace ascope {

class WeightAverage {
 public:
  /// Folds the model's current parameters into the mean.
  void add(const torch::nn::Module& model);
  /// Steps folded in so far.
  int64_t count() const { return count_; }
  /// Writes the mean into `model`'s own parameter tensors (the optimizer keeps pointing at them);
  /// buffers stay as they are. `model` must be the module averaged.
  void copyInto(torch::nn::Module& model) const;

 private:
  std::vector<torch::Tensor> means_;
  int64_t count_ = 0;
};

}  // namespace ascope
