#include "engine/train/tensor_threads.h"

#include <ATen/Parallel.h>

#include <cstdlib>

#include "engine/core/cpu_runtime.h"

namespace ascope {

int useTensorThreads(int requested) {
  // A count the user gave OpenMP is LibTorch's default already and is kept.
  if (requested <= 0 && std::getenv("OMP_NUM_THREADS") != nullptr) return at::get_num_threads();
  const int threads = requested > 0 ? requested : tuneCpuRuntime().cpus;
  if (at::get_num_threads() != threads) at::set_num_threads(threads);
  return threads;
}

}  // namespace ascope
