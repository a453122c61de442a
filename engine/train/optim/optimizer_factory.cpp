#include "engine/train/optim/optimizer_factory.h"

#include "engine/train/optim/fused_adam.h"
#include "engine/train/optim/fused_adamw.h"

namespace ascope {

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(torch::nn::Module& model,
                                                       const OptimizationConfig& o) {
  if (o.optimizer == "adamw") {
    return std::make_unique<FusedAdamW>(
        model.parameters(),
        torch::optim::AdamWOptions(o.lr).eps(o.adam_eps).weight_decay(o.weight_decay));
  }
  return std::make_unique<FusedAdam>(
      model.parameters(),
      torch::optim::AdamOptions(o.lr).eps(o.adam_eps).weight_decay(o.weight_decay));
}

}  // namespace ascope
