#pragma once
// Gradients set to "none" between steps instead of zeroed: LibTorch 1.13's zero_grad() writes
// zeros over every gradient, and backward then adds the new gradient into them (a read of both
// and a write per element). Without a gradient, backward hands its result over as it is.
#include <torch/optim/optimizer.h>

namespace ascope {

/// Releases the gradient of every parameter the optimizer updates.
void releaseGradients(torch::optim::Optimizer& optimizer);

}  // namespace ascope
