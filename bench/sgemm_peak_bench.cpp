// The float32 matrix-product peak of this machine as LibTorch reaches it: what
// bench/seed_compare.sh holds the training steps' GFLOP/s against. Runs with the same OpenBLAS
// kernels as attentionscope-cli (relaunching as it does). Prints one line per thread count:
//   sgemm n=<n> threads=<t> gflop_per_s=<best of 5> blas=<OpenBLAS kernel set>
//   sgemm_peak_bench [N [THREADS…]]   (default: N = 2048, 1 thread and all of them)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "engine/core/openblas_kernels.h"
#include "engine/performance/sgemm_peak.h"

int main(int argc, char** argv) {
  ascope::relaunchWithMatchingOpenBlasKernels(argv);
  const long n = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 2048;
  std::vector<int> thread_counts;
  for (int i = 2; i < argc; ++i) thread_counts.push_back(std::atoi(argv[i]));
  if (thread_counts.empty()) {
    const int all = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    thread_counts = all > 1 ? std::vector<int>{1, all} : std::vector<int>{1};
  }
  for (int threads : thread_counts) {
    const ascope::Expected<double> gflops = ascope::measureSgemmGflops(n, threads, 5);
    if (!gflops.ok()) {
      std::fprintf(stderr, "sgemm_peak_bench: %s\n", gflops.error().c_str());
      return 1;
    }
    const char* blas = ascope::openBlasKernelName();
    std::printf("sgemm n=%ld threads=%d gflop_per_s=%.1f blas=%s\n", n, threads, *gflops,
                *blas != '\0' ? blas : "not-OpenBLAS");
  }
  return 0;
}
