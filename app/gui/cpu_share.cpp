#include "app/gui/cpu_share.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

namespace ascope {

int leaveOneCoreForTheGui() {
  if (std::getenv("OPENBLAS_NUM_THREADS") != nullptr) return 0;  // the user's choice wins
  // Looked up at run time: the BLAS behind LibTorch is chosen by Debian's alternatives (OpenBLAS,
  // BLIS or the reference BLAS), so there is no header or link dependency to rely on.
  using SetThreads = void (*)(int);
  auto* set_threads = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
  if (set_threads == nullptr) return 0;
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  const int threads = std::max(1, cores - 1);
  set_threads(threads);
  return threads;
}

}  // namespace ascope
