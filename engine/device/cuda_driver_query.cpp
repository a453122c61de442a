#include "engine/device/cuda_driver_query.h"

#include <dlfcn.h>

#include <array>

namespace ascope {
namespace {

// The driver API's few entry points used here, as cuda.h declares them (CUresult is an int).
using CuInit = int (*)(unsigned int);
using CuDriverGetVersion = int (*)(int*);
using CuDeviceGetCount = int (*)(int*);
using CuDeviceGet = int (*)(int*, int);
using CuDeviceGetName = int (*)(char*, int, int);
using CuDeviceTotalMem = int (*)(std::size_t*, int);

template <typename F>
F symbol(void* library, const char* name) {
  return reinterpret_cast<F>(dlsym(library, name));
}

}  // namespace

DriverGpus queryDriverGpus() {
  DriverGpus out;
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    out.problem = "no NVIDIA driver (libcuda.so.1)";
    return out;
  }
  const auto init = symbol<CuInit>(library, "cuInit");
  const auto version = symbol<CuDriverGetVersion>(library, "cuDriverGetVersion");
  const auto count = symbol<CuDeviceGetCount>(library, "cuDeviceGetCount");
  const auto get = symbol<CuDeviceGet>(library, "cuDeviceGet");
  const auto name = symbol<CuDeviceGetName>(library, "cuDeviceGetName");
  const auto memory = symbol<CuDeviceTotalMem>(library, "cuDeviceTotalMem_v2");
  int devices = 0;
  if (!init || !version || !count || !get || !name || !memory) {
    out.problem = "the NVIDIA driver's libcuda.so.1 lacks the functions asked for";
  } else if (init(0) != 0) {
    out.problem = "the NVIDIA driver did not start (cuInit failed)";
  } else if (count(&devices) != 0) {
    out.problem = "the NVIDIA driver could not count its GPUs";
  } else {
    version(&out.driver_version);
    for (int i = 0; i < devices; ++i) {
      int device = 0;
      std::array<char, 256> text{};
      std::size_t bytes = 0;
      if (get(&device, i) != 0 || name(text.data(), static_cast<int>(text.size()), device) != 0)
        continue;
      memory(&bytes, device);
      out.gpus.push_back({std::string(text.data()), static_cast<uint64_t>(bytes)});
    }
    if (out.gpus.empty()) out.problem = "the NVIDIA driver lists no GPU";
  }
  // Left loaded: LibTorch's CUDA runtime, when there is one, holds it anyway.
  return out;
}

}  // namespace ascope
