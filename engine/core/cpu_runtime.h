#pragma once
// How the process uses the CPU: the allocator's treatment of large buffers and which thread pool
// owns the cores. Chosen by the program at start-up, so that no environment variable is needed.
//
// - glibc hands buffers above its mmap threshold back to the kernel when they are freed, and a
//   training step frees and re-allocates the same large tensors every step: each comes back as
//   fresh pages, one page fault per 4 KiB (1.75 M faults and 8.6 s of system time in a 300-step
//   IMDB run). The allocator is told to keep them: nothing is mapped per buffer (glibc caps the
//   mmap threshold at 32 MiB, and one attention score tensor of a 64 × 320-token batch is 52 MB),
//   and all threads share the main heap, because the per-thread heaps shrink their free tail
//   back to the kernel whatever the trim threshold (measured on that batch: 16.5 M faults in 100
//   steps as before, 6.9 M with no mapping, 0.25 M with no mapping and one heap).
// - LibTorch's intra-op pool (OpenMP) and OpenBLAS's own threads both spin while they wait for
//   work; with both on two cores, each stole the cores from the other and two threads ran 2.4×
//   slower than one. OpenMP owns the cores: OpenBLAS runs single-threaded inside it, and the
//   engine's matrix products split large products across the pool themselves.
#include <cstddef>
#include <string>

namespace ascope {

struct CpuRuntimeChoice {
  /// CPUs this process may run on (its affinity mask): the default number of tensor threads.
  /// LibTorch's own default counts physical cores as its CPU library sees them, and took 1 on a
  /// 2-CPU virtual machine, which then trained on half of it.
  int cpus = 1;
  bool allocator_keeps_buffers = false;
  int heaps = 0;                         ///< malloc arenas allowed (0: glibc's default)
  std::size_t trim_threshold_bytes = 0;  ///< free memory kept before returning it to the kernel
  /// The BLAS LibTorch runs on, as found in the process: "OpenBLAS" (Debian's LibTorch), "MKL"
  /// (the PyTorch wheels, whose threads LibTorch's own thread count sets) or "other" (Debian's
  /// reference BLAS, …). Only OpenBLAS is changed.
  std::string blas = "other";
  int blas_threads = 0;      ///< OpenBLAS threads (0: not OpenBLAS, left alone)
  std::string blas_kernels;  ///< OpenBLAS kernel set, "" when not OpenBLAS

  /// One line for the log: what was chosen and why it matters.
  std::string text(int tensor_threads) const;
};

/// Applies the choice (idempotent; call at start-up, before threads start) and returns it.
const CpuRuntimeChoice& tuneCpuRuntime();

}  // namespace ascope
