#include "engine/performance/sgemm_peak.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <string>

namespace ascope {
namespace {

/// OpenBLAS's pthread build (Debian's) multiplies matrices on a thread pool of its own, which
/// LibTorch's thread count does not reach: without this, "1 thread" would use every core.
void setOpenBlasThreads(int threads) {
  using SetThreads = void (*)(int);
  auto* set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
  if (set != nullptr) set(threads);
}

}  // namespace

Expected<double> measureSgemmGflops(int64_t n, int threads, int repeats) {
  if (n < 1 || threads < 1 || repeats < 1) {
    return Error{"sgemm needs n, threads and repeats of at least 1, got n " + std::to_string(n) +
                 ", threads " + std::to_string(threads) + ", repeats " + std::to_string(repeats)};
  }
  at::set_num_threads(threads);
  setOpenBlasThreads(threads);
  const at::Tensor a = at::rand({n, n}, at::kFloat);
  const at::Tensor b = at::rand({n, n}, at::kFloat);
  at::Tensor c = at::mm(a, b);  // first call: thread pool start-up and BLAS buffers
  double best_s = 0;
  for (int i = 0; i < repeats; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    at::mm_out(c, a, b);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best_s = i == 0 ? s : std::min(best_s, s);
  }
  const double flops =
      2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
  return best_s > 0 ? flops / best_s / 1e9 : 0.0;
}

}  // namespace ascope
