#pragma once
// A model's parameters and buffers copied aside in CPU memory, to be put back after the model has
// been given other weights for a while (the final test of a run evaluates checkpoints/best.pt,
// then the model returns to the weights the run ended with). In CPU memory so that a GPU with
// little room left is not asked for a second copy of the model.
#include <torch/nn/module.h>

#include <string>
#include <utility>
#include <vector>

namespace ascope {

class ModelWeightsCopy {
 public:
  explicit ModelWeightsCopy(const torch::nn::Module& model);

  /// Copies the weights back into `model`'s own tensors (the optimizer keeps pointing at them).
  /// `model` must be the module copied, or one of the same structure.
  void restoreInto(torch::nn::Module& model) const;

 private:
  std::vector<std::pair<std::string, torch::Tensor>> tensors_;
};

}  // namespace ascope
