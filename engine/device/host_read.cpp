#include "engine/device/host_read.h"

#include <ATen/ops/cat.h>

#include "engine/device/host_wait_counter.h"

namespace ascope {

std::vector<double> readToHost(const std::vector<at::Tensor>& tensors) {
  if (tensors.empty()) return {};
  std::vector<at::Tensor> flat;
  flat.reserve(tensors.size());
  for (const at::Tensor& t : tensors) flat.push_back(t.detach().reshape({-1}).to(at::kDouble));
  const at::Tensor host = copyToHost(at::cat(flat)).contiguous();
  const double* values = host.data_ptr<double>();
  return std::vector<double>(values, values + host.numel());
}

at::Tensor copyToHost(const at::Tensor& tensor) {
  HostWaitCounter::noteRead("readToHost");
  return tensor.to(at::kCPU);
}

}  // namespace ascope
