#include "engine/train/optim/gradient_release.h"

namespace ascope {

void releaseGradients(torch::optim::Optimizer& optimizer) {
  for (auto& group : optimizer.param_groups()) {
    for (torch::Tensor& p : group.params()) p.mutable_grad().reset();
  }
}

}  // namespace ascope
