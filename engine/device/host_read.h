#pragma once
// Reading figures off the device: many scalars with one copy, so the host waits once for all of
// them (a step's loss and accuracy counts, a validation pass's sums) instead of once per number.
#include <ATen/core/Tensor.h>

#include <vector>

namespace ascope {

/// Every element of `tensors` (scalars or not, any device, any number type) as doubles, in
/// order, flattened: one wait for the device.
std::vector<double> readToHost(const std::vector<at::Tensor>& tensors);

/// `tensor` on the host (one wait when it is on a device; none when it is there already).
at::Tensor copyToHost(const at::Tensor& tensor);

}  // namespace ascope
