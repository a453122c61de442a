#pragma once
// Adam whose update of a CPU float32 parameter is one pass over its memory. LibTorch's
// own step runs seven tensor operations per parameter (each a full read and write, two of them
// allocating a temporary): on the text classifier, whose 2.8 M-weight embedding is updated every
// step, that was a third of the step. Same state (AdamParamState, same keys) as LibTorch's
// optimizers, so checkpoints load either way (FusedAdamW does the same for AdamW). Other devices,
// dtypes, sparse gradients and amsgrad take LibTorch's step.
#include <torch/optim/adam.h>

#include <vector>

namespace ascope {

class FusedAdam : public torch::optim::Adam {
 public:
  FusedAdam(std::vector<torch::Tensor> params, torch::optim::AdamOptions options)
      : torch::optim::Adam(std::move(params), std::move(options)) {}
  torch::Tensor step(LossClosure closure = nullptr) override;
};

}  // namespace ascope
