#pragma once
// A batch cut on the host, sent to the device without the host waiting: LibTorch's plain
// `to(cuda)` of pageable memory waits for the copy, and with it for every step queued before.
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

namespace ascope {

/// `host` on `device`: through pinned memory and without waiting when `device` is a GPU; `host`
/// itself when it is already there.
at::Tensor copyToDevice(const at::Tensor& host, const c10::Device& device);

}  // namespace ascope
