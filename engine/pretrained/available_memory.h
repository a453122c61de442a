#pragma once
// The memory a new model can still take: MemAvailable on the CPU, the free memory of the GPU on
// CUDA (where LibTorch was built with CUDA's runtime; elsewhere it is unknown).
#include <cstdint>
#include <optional>
#include <string>

#include <c10/core/Device.h>

namespace ascope {

struct AvailableMemory {
  std::optional<std::uint64_t> bytes;  ///< unknown: nothing to compare with
  std::string source;                  ///< where the figure comes from, for messages
};

AvailableMemory availableMemory(const c10::Device& device);

/// MemAvailable of /proc/meminfo's text, in bytes; nullopt without that line.
std::optional<std::uint64_t> parseMemAvailable(const std::string& meminfo);

}  // namespace ascope
