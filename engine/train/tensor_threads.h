#pragma once
// How many threads LibTorch's intra-op pool uses: the one place that sets it.
#include <string>

namespace ascope {

/// Sets LibTorch's intra-op thread count to `requested`, at most the CPUs this process may use
/// (tuneCpuRuntime().cpus), or where it is 0 to those CPUs, unless OMP_NUM_THREADS says
/// otherwise; returns the count in use. Process-wide. More threads than CPUs only wait for each
/// other: 1024 of them on 2 CPUs took 220 s for two tiny steps and did not stop in time for
/// SIGTERM.
int useTensorThreads(int requested);

/// What useTensorThreads(requested) does differently from what was asked, for the log ("threads
/// 1024: this process may run on 2 CPUs; 2 tensor threads are used"); empty when it does as asked.
std::string tensorThreadsNote(int requested);

}  // namespace ascope
