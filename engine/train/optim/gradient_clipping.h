#pragma once
// Gradient clipping by the global 2-norm, as torch::nn::utils::clip_grad_norm_ does it, with the
// norm kept on the device: LibTorch's returns the norm as a double, which makes every clipped
// training step wait for the device.
#include <ATen/core/Tensor.h>

#include <vector>

namespace ascope {

/// Scales the gradients of `parameters` (those that have one) by min(1, max_norm / (norm + 1e-6)),
/// norm being the 2-norm of all of them together. A non-finite norm leaves non-finite gradients,
/// as LibTorch's does; the loss read at the session's cadence finds them.
void clipGradientNorm(const std::vector<at::Tensor>& parameters, double max_norm);

}  // namespace ascope
