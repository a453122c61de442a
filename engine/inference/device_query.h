#pragma once
// Which devices LibTorch can train on here. Plain C++: the .cpp includes LibTorch.

namespace ascope {

/// True when LibTorch sees a CUDA GPU (the Run dock offers "CUDA" only then).
bool cudaAvailable();

}  // namespace ascope
