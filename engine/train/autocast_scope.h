#pragma once
// CUDA autocast to bfloat16 for the forward pass, with the API of whichever LibTorch we build with.
#include <ATen/autocast_mode.h>
#include <torch/version.h>

namespace ascope {

class AutocastScope {
 public:
  AutocastScope() {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
    at::autocast::set_autocast_enabled(at::kCUDA, true);
    at::autocast::set_autocast_dtype(at::kCUDA, at::kBFloat16);
#else
    at::autocast::set_enabled(true);
    at::autocast::set_autocast_gpu_dtype(at::kBFloat16);
#endif
  }
  ~AutocastScope() {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
    at::autocast::set_autocast_enabled(at::kCUDA, false);
#else
    at::autocast::set_enabled(false);
#endif
    at::autocast::clear_cache();
  }
  AutocastScope(const AutocastScope&) = delete;
  AutocastScope& operator=(const AutocastScope&) = delete;
};

}  // namespace ascope
