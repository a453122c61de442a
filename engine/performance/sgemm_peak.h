#pragma once
// The speed of this machine's float32 matrix product through LibTorch (at::mm, i.e. the BLAS the
// trainer uses): the practical peak a training step's GFLOP/s (bench) can be held against. Plain
// C++ header; the .cpp uses LibTorch.
#include <cstdint>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// GFLOP/s (2·n³ per product) of at::mm on two n × n float32 matrices with `threads` threads, the
/// best of `repeats` timed products after one untimed one. Sets LibTorch's and OpenBLAS's thread
/// counts for the whole process (a benchmark program's own). Errors: n, threads or repeats < 1.
Expected<double> measureSgemmGflops(int64_t n, int threads, int repeats);

}  // namespace ascope
