#include "engine/train/optim/fused_adam.h"

#include "engine/train/optim/fused_adam_step.h"

namespace ascope {

torch::Tensor FusedAdam::step(LossClosure closure) {
  if (closure != nullptr) return torch::optim::Adam::step(std::move(closure));
  if (onePassAdamStep<torch::optim::AdamParamState, torch::optim::AdamOptions>(
          param_groups_, state_, /*decoupled_weight_decay=*/false)) {
    return {};
  }
  return torch::optim::Adam::step();
}

}  // namespace ascope
