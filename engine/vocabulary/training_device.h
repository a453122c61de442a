#pragma once
// A device a run can train on, as the Run dock, `--device` and the estimate before a run name it.
#include <cstdint>
#include <string>

namespace ascope {

struct TrainingDevice {
  std::string id;    ///< "cpu" or "cuda" (TrainingConfig::device)
  std::string name;  ///< "Intel(R) Xeon(R) …", "NVIDIA H200"
  uint64_t memory_bytes = 0;
  bool usable = true;  ///< false: found, or asked about, but LibTorch cannot train on it here
  /// One line for a person: "NVIDIA H200, 139.8 GiB · LibTorch 2.11.0, CUDA 13.0", or why there
  /// is no GPU ("LibTorch 1.13.1 here is built without CUDA").
  std::string text;
};

}  // namespace ascope
