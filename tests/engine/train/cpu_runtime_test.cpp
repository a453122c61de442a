// tuneCpuRuntime: glibc's allocator is told to keep freed buffers, and in a process whose LibTorch
// runs on OpenBLAS (Debian 12's, as engine_tests links it here) OpenBLAS is set to one thread.
// Other LibTorch builds find MKL (the PyTorch wheels) or another BLAS (Debian trixie's reference
// BLAS), which are left as they are: the tests check what the runtime found.
#include <gtest/gtest.h>

#include <ATen/Parallel.h>
#include <dlfcn.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <thread>

#include "engine/core/cpu_runtime.h"
#include "engine/train/tensor_threads.h"

namespace ascope {
namespace {

bool mentions(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(CpuRuntime, AppliedOnceOpenBlasOneThreadAllocatorKeepsBuffers) {
  const CpuRuntimeChoice& choice = tuneCpuRuntime();
  EXPECT_EQ(&tuneCpuRuntime(), &choice);
  EXPECT_TRUE(choice.allocator_keeps_buffers);
  EXPECT_EQ(choice.heaps, 1);
  EXPECT_EQ(choice.trim_threshold_bytes, std::size_t{1} << 30);

  using GetThreads = int (*)();
  auto* get_threads = reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
  if (get_threads == nullptr) {
    // Not OpenBLAS: named, and nothing of OpenBLAS claimed.
    EXPECT_TRUE(choice.blas == "MKL" || choice.blas == "other") << choice.blas;
    EXPECT_EQ(choice.blas_threads, 0);
    EXPECT_TRUE(choice.blas_kernels.empty());
    return;
  }
  EXPECT_EQ(choice.blas, "OpenBLAS");
  EXPECT_EQ(choice.blas_threads, 1);
  EXPECT_FALSE(choice.blas_kernels.empty());
  EXPECT_EQ(get_threads(), 1);  // OpenBLAS itself now says one thread
}

long minorFaults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// What the choice is for: a buffer larger than glibc's largest mmap threshold, freed and asked for
// again, as a training step does with its attention scores, comes back without faulting its pages
// in again. A sanitizer's allocator ignores mallopt.
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
TEST(CpuRuntime, LargeBufferFreedAndAskedForAgainIsNotFaultedInAgain) {
  ASSERT_TRUE(tuneCpuRuntime().allocator_keeps_buffers);
  constexpr std::size_t kBytes = std::size_t{64} << 20;  // 16384 pages
  auto touch = [](std::size_t bytes) {
    auto* buffer = static_cast<volatile char*>(std::malloc(bytes));
    for (std::size_t i = 0; i < bytes; i += 4096) buffer[i] = 1;
    std::free(const_cast<char*>(buffer));
  };
  touch(kBytes);  // the heap grows once
  const long before = minorFaults();
  for (int step = 0; step < 5; ++step) touch(kBytes);
  EXPECT_LT(minorFaults() - before, 1000) << "each 64 MiB buffer faulted back in";
}
#endif

TEST(CpuRuntime, TextSaysWhatWasChosen) {
  const std::string text = tuneCpuRuntime().text(2);
  EXPECT_TRUE(mentions(text, "CPU: 2 thread(s)")) << text;
  EXPECT_TRUE(mentions(text, "1 heap, none mapped per buffer, trim threshold 1024 MiB")) << text;
  EXPECT_FALSE(mentions(text, "allocator left as it is")) << text;
  const std::string& blas = tuneCpuRuntime().blas;
  if (blas == "OpenBLAS") {
    EXPECT_TRUE(mentions(text, "OpenBLAS 1 thread")) << text;
    EXPECT_TRUE(mentions(text, tuneCpuRuntime().blas_kernels + " kernels")) << text;
    EXPECT_FALSE(mentions(text, "left as it is")) << text;
  } else if (blas == "MKL") {
    EXPECT_TRUE(mentions(text, "MKL, its threads set with LibTorch's")) << text;
  } else {
    EXPECT_TRUE(mentions(text, "BLAS not OpenBLAS, left as it is")) << text;
  }
}

TEST(CpuRuntime, NothingAppliedSaysLeftAsItIs) {
  const std::string text = CpuRuntimeChoice{}.text(1);
  EXPECT_TRUE(mentions(text, "CPU: 1 thread(s)")) << text;
  EXPECT_TRUE(mentions(text, "BLAS not OpenBLAS, left as it is")) << text;
  EXPECT_TRUE(mentions(text, "allocator left as it is")) << text;
  EXPECT_FALSE(mentions(text, "OpenBLAS 1 thread")) << text;
  EXPECT_FALSE(mentions(text, "MiB")) << text;
}

}  // namespace
}  // namespace ascope

namespace ascope {
namespace {

TEST(TensorThreads, DefaultIsEveryCpuOfTheProcessAndAnAskedCountWins) {
  const int saved = at::get_num_threads();
  // The test suite runs one test per core with OMP_NUM_THREADS=1 (scripts/run-tests.sh).
  const char* omp = std::getenv("OMP_NUM_THREADS");
  const std::string saved_omp = omp != nullptr ? omp : "";
  unsetenv("OMP_NUM_THREADS");
  const int cpus = tuneCpuRuntime().cpus;
  EXPECT_GE(cpus, 1);
  EXPECT_LE(cpus, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  EXPECT_EQ(useTensorThreads(0), cpus);
  EXPECT_EQ(at::get_num_threads(), cpus);
  EXPECT_EQ(useTensorThreads(1), 1);
  EXPECT_EQ(at::get_num_threads(), 1);
  // A count the user gave OpenMP is kept: the default leaves the current count alone.
  setenv("OMP_NUM_THREADS", "1", 1);
  EXPECT_EQ(useTensorThreads(0), 1);
  EXPECT_EQ(useTensorThreads(2), 2);
  if (omp != nullptr) {
    setenv("OMP_NUM_THREADS", saved_omp.c_str(), 1);
  } else {
    unsetenv("OMP_NUM_THREADS");
  }
  at::set_num_threads(saved);
}

}  // namespace
}  // namespace ascope
