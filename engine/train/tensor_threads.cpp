#include "engine/train/tensor_threads.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cstdlib>

#include "engine/core/cpu_runtime.h"

namespace ascope {

int useTensorThreads(int requested) {
  // A count the user gave OpenMP is LibTorch's default already and is kept.
  if (requested <= 0 && std::getenv("OMP_NUM_THREADS") != nullptr) return at::get_num_threads();
  const int cpus = std::max(1, tuneCpuRuntime().cpus);
  const int threads = requested > 0 ? std::min(requested, cpus) : cpus;
  if (at::get_num_threads() != threads) at::set_num_threads(threads);
  return threads;
}

std::string tensorThreadsNote(int requested) {
  const int cpus = std::max(1, tuneCpuRuntime().cpus);
  if (requested <= cpus) return {};
  return "threads " + std::to_string(requested) + ": this process may run on " +
         std::to_string(cpus) + (cpus == 1 ? " CPU" : " CPUs") + ", so " + std::to_string(cpus) +
         " tensor threads are used (more would only wait for each other)";
}

}  // namespace ascope
