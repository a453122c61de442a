#pragma once
// The NVIDIA GPUs of this machine as its driver names them, asked through libcuda at run time:
// the build needs no CUDA headers, and a machine without the driver answers why there is none.
#include <cstdint>
#include <string>
#include <vector>

namespace ascope {

struct DriverGpu {
  std::string name;
  uint64_t memory_bytes = 0;
};

struct DriverGpus {
  std::vector<DriverGpu> gpus;
  int driver_version = 0;  ///< CUDA's encoding: 13000 is 13.0; 0 when unknown
  std::string problem;     ///< why none could be listed ("no NVIDIA driver (libcuda.so.1)"), or ""
};

DriverGpus queryDriverGpus();

}  // namespace ascope
