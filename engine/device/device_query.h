#pragma once
// Which devices LibTorch can train on here, and what they are. Plain C++: the .cpp includes
// LibTorch.
#include <string>
#include <vector>

#include "engine/vocabulary/training_device.h"

namespace ascope {

/// True when LibTorch sees a CUDA GPU (the Run dock offers "CUDA" only then).
bool cudaAvailable();

/// "LibTorch 2.11.0, CUDA 13.0" or "LibTorch 1.13.1, built without CUDA".
std::string libtorchBuild();

/// The CPU first, then every GPU LibTorch can use; when it can use none, one unusable "cuda"
/// entry saying why (no driver, no GPU, LibTorch built without CUDA), naming the GPU the driver
/// found if there is one.
std::vector<TrainingDevice> trainingDevices();

/// "no CUDA GPU is available: no NVIDIA driver (libcuda.so.1) · LibTorch 1.13.1, built without
/// CUDA": what a command asked for --device cuda answers where LibTorch can use no GPU.
std::string noCudaReason();

}  // namespace ascope
