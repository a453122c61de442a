#include "engine/device/device_query.h"

#include <ATen/Context.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <torch/cuda.h>
#include <torch/version.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <thread>

#include "engine/device/cuda_driver_query.h"

namespace ascope {
namespace {

std::string gib(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1ULL << 30));
  return text;
}

std::string cpuName() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) == 0) {
      const std::size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "CPU";
}

/// The CUDA runtime LibTorch was built with, "13.0"; "" when it has none.
std::string cudaRuntime() {
  if (!at::hasCUDA()) return "";
  try {
    const long version = at::detail::getCUDAHooks().versionCUDART();
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace

bool cudaAvailable() {
  return torch::cuda::is_available();
}

std::string libtorchBuild() {
  const std::string cuda = cudaRuntime();
  return "LibTorch " TORCH_VERSION +
         (cuda.empty() ? std::string(", built without CUDA") : ", CUDA " + cuda);
}

std::vector<TrainingDevice> trainingDevices() {
  std::vector<TrainingDevice> out;
  TrainingDevice cpu;
  cpu.id = "cpu";
  cpu.name = cpuName();
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  cpu.memory_bytes = pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * page : 0;
  cpu.text = cpu.name + ", " + std::to_string(std::thread::hardware_concurrency()) + " cores, " +
             gib(cpu.memory_bytes) + " · " + libtorchBuild();
  out.push_back(cpu);

  const DriverGpus driver = queryDriverGpus();
  const bool usable = cudaAvailable();
  TrainingDevice gpu;
  gpu.id = "cuda";
  gpu.usable = usable;
  if (!driver.gpus.empty()) {
    gpu.name = driver.gpus.front().name;
    gpu.memory_bytes = driver.gpus.front().memory_bytes;
    gpu.text = gpu.name + ", " + gib(gpu.memory_bytes);
    if (driver.gpus.size() > 1) {
      gpu.text += " (the first of " + std::to_string(driver.gpus.size()) + " GPUs)";
    }
    gpu.text += " · " + libtorchBuild();
    if (driver.driver_version > 0) {
      gpu.text += ", driver for CUDA " + std::to_string(driver.driver_version / 1000) + "." +
                  std::to_string(driver.driver_version % 1000 / 10);
    }
    if (!usable) gpu.text += " (LibTorch cannot use it)";
  } else {
    gpu.name = "no GPU";
    gpu.text = (driver.problem.empty() ? "none found" : driver.problem) + " · " + libtorchBuild();
  }
  out.push_back(gpu);
  return out;
}

std::string noCudaReason() {
  const std::vector<TrainingDevice> devices = trainingDevices();
  return "no CUDA GPU is available: " + devices.back().text;
}

}  // namespace ascope
