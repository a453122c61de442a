#include "engine/device/copy_to_device.h"

namespace ascope {

at::Tensor copyToDevice(const at::Tensor& host, const c10::Device& device) {
  if (host.device() == device) return host;
  if (device.is_cuda() && host.device().is_cpu()) {
    // The pinned block is kept by LibTorch's host allocator until the copy has run.
    return host.pin_memory().to(device, /*non_blocking=*/true);
  }
  return host.to(device);
}

}  // namespace ascope
