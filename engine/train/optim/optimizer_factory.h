#pragma once
// The optimizer a run's settings ask for; shared by the trainer and the step benchmark, so a timed
// step costs what a step of a run costs.
#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>

#include <memory>

#include "engine/vocabulary/training_config.h"

namespace ascope {

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(torch::nn::Module& model,
                                                       const OptimizationConfig& o);

}  // namespace ascope
