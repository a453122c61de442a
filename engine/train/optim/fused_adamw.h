#pragma once
// AdamW with the one-pass update of FusedAdam (see fused_adam.h): decoupled weight decay, same
// state as LibTorch's AdamW.
#include <torch/optim/adamw.h>

#include <vector>

namespace ascope {

class FusedAdamW : public torch::optim::AdamW {
 public:
  FusedAdamW(std::vector<torch::Tensor> params, torch::optim::AdamWOptions options)
      : torch::optim::AdamW(std::move(params), std::move(options)) {}
  torch::Tensor step(LossClosure closure = nullptr) override;
};

}  // namespace ascope
