#include "engine/pretrained/available_memory.h"

#include <fstream>
#include <sstream>

#include <torch/cuda.h>

// Only a LibTorch built with CUDA ships (and links) CUDA's runtime; the CPU build has neither.
#if __has_include(<cuda_runtime_api.h>)
#include <cuda_runtime_api.h>
#define ATTENTIONSCOPE_HAS_CUDA_RUNTIME 1
#endif

namespace ascope {

std::optional<std::uint64_t> parseMemAvailable(const std::string& meminfo) {
  std::istringstream lines(meminfo);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string name, unit;
    std::uint64_t value = 0;
    if (!(fields >> name >> value) || name != "MemAvailable:") continue;
    fields >> unit;
    return unit == "kB" ? value * 1024 : value;
  }
  return std::nullopt;
}

AvailableMemory availableMemory(const c10::Device& device) {
  if (device.is_cuda()) {
#ifdef ATTENTIONSCOPE_HAS_CUDA_RUNTIME
    std::size_t free_bytes = 0, total_bytes = 0;
    // The current device's figure: the engine trains on one GPU, the one CUDA starts with.
    if (torch::cuda::is_available() && cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
      return {free_bytes, "free memory of the CUDA GPU"};
    }
#endif
    return {std::nullopt, "the CUDA GPU's free memory is unknown"};
  }
  std::ifstream in("/proc/meminfo");
  std::ostringstream text;
  text << in.rdbuf();
  return {parseMemAvailable(text.str()), "MemAvailable in /proc/meminfo"};
}

}  // namespace ascope
