#include "engine/core/cpu_runtime.h"

#include <dlfcn.h>
#include <malloc.h>
#include <sched.h>

#include <algorithm>
#include <thread>

#include "engine/core/openblas_kernels.h"

namespace ascope {
namespace {

constexpr std::size_t kTrimThreshold = std::size_t{1} << 30;

int cpusAvailable() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

CpuRuntimeChoice apply() {
  CpuRuntimeChoice choice;
  choice.cpus = cpusAvailable();
#if defined(__GLIBC__)
  // Where the heap cannot grow, glibc still maps memory as a fallback: no mapping per buffer
  // does not mean an allocation can fail for want of it.
  if (mallopt(M_MMAP_MAX, 0) == 1 && mallopt(M_ARENA_MAX, 1) == 1 &&
      mallopt(M_TRIM_THRESHOLD, static_cast<int>(kTrimThreshold)) == 1) {
    choice.allocator_keeps_buffers = true;
    choice.heaps = 1;
    choice.trim_threshold_bytes = kTrimThreshold;
  }
#endif
  // Looked up at run time: which BLAS LibTorch gets is Debian's alternatives' choice.
  using SetThreads = void (*)(int);
  auto* set_threads = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
  if (set_threads != nullptr) {
    set_threads(1);
    choice.blas = "OpenBLAS";
    choice.blas_threads = 1;
    choice.blas_kernels = openBlasKernelName();
  } else if (dlsym(RTLD_DEFAULT, "mkl_get_max_threads") != nullptr ||
             dlsym(RTLD_DEFAULT, "MKL_Get_Max_Threads") != nullptr) {
    choice.blas = "MKL";
  }
  return choice;
}

std::string mebibytes(std::size_t bytes) {
  return std::to_string(bytes >> 20) + " MiB";
}

}  // namespace

const CpuRuntimeChoice& tuneCpuRuntime() {
  static const CpuRuntimeChoice choice = apply();
  return choice;
}

std::string CpuRuntimeChoice::text(int tensor_threads) const {
  std::string line = "CPU: " + std::to_string(tensor_threads) +
                     " thread(s) for tensor operations (LibTorch's pool owns the cores";
  if (blas_threads > 0) {
    line += "; OpenBLAS " + std::to_string(blas_threads) + " thread inside it, " + blas_kernels +
            " kernels)";
  } else if (blas == "MKL") {
    line += "; MKL, its threads set with LibTorch's)";
  } else {
    line += "; BLAS not OpenBLAS, left as it is)";
  }
  line += allocator_keeps_buffers ? "; allocator keeps freed buffers (" + std::to_string(heaps) +
                                        " heap, none mapped per buffer, trim threshold " +
                                        mebibytes(trim_threshold_bytes) + ")"
                                  : "; allocator left as it is";
  return line;
}

}  // namespace ascope
