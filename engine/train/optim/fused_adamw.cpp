#include "engine/train/optim/fused_adamw.h"

#include "engine/train/optim/fused_adam_step.h"

namespace ascope {

torch::Tensor FusedAdamW::step(LossClosure closure) {
  if (closure != nullptr) return torch::optim::AdamW::step(std::move(closure));
  if (onePassAdamStep<torch::optim::AdamWParamState, torch::optim::AdamWOptions>(
          param_groups_, state_, /*decoupled_weight_decay=*/true)) {
    return {};
  }
  return torch::optim::AdamW::step();
}

}  // namespace ascope
