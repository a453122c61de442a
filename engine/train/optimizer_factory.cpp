#include "engine/train/optimizer_factory.h"

#include <torch/optim/adam.h>
#include <torch/optim/adamw.h>

namespace ascope {

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(torch::nn::Module& model,
                                                       const OptimizationConfig& o) {
  if (o.optimizer == "adamw") {
    return std::make_unique<torch::optim::AdamW>(
        model.parameters(),
        torch::optim::AdamWOptions(o.lr).eps(o.adam_eps).weight_decay(o.weight_decay));
  }
  return std::make_unique<torch::optim::Adam>(
      model.parameters(),
      torch::optim::AdamOptions(o.lr).eps(o.adam_eps).weight_decay(o.weight_decay));
}

}  // namespace ascope
