#include "engine/core/openblas_kernels.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace ascope {
namespace {

// Set on the relaunch so that a kernel OpenBLAS rejects can never cause a loop.
constexpr const char* kRelaunchedMark = "ATTENTIONSCOPE_OPENBLAS_RELAUNCHED";

bool isGenericKernel(const char* name) {
  for (const char* generic :
       {"Prescott", "Core2", "Penryn", "Dunnington", "Nehalem", "Atom", "Sandybridge"}) {
    if (std::strcmp(name, generic) == 0) return true;
  }
  return false;
}

}  // namespace

const char* openBlasKernelName() {
  // Looked up at run time: Debian's alternatives decide which BLAS LibTorch gets.
  using CoreName = char* (*)();
  auto* core_name = reinterpret_cast<CoreName>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  return core_name == nullptr ? "" : core_name();
}

void relaunchWithMatchingOpenBlasKernels(char** argv) {
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr || std::getenv(kRelaunchedMark) != nullptr) {
    return;
  }
  if (!isGenericKernel(openBlasKernelName())) return;
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return;
  setenv("OPENBLAS_CORETYPE", "Haswell", 1);
  setenv(kRelaunchedMark, "1", 1);
  execv("/proc/self/exe", argv);
  // Still here: the relaunch failed; go on with the generic kernels.
  unsetenv("OPENBLAS_CORETYPE");
  unsetenv(kRelaunchedMark);
}

}  // namespace ascope
