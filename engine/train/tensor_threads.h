#pragma once
// How many threads LibTorch's intra-op pool uses: the one place that sets it.

namespace ascope {

/// Sets LibTorch's intra-op thread count to `requested`, or where it is 0 to the CPUs this
/// process may use (tuneCpuRuntime().cpus), unless OMP_NUM_THREADS says otherwise; returns the
/// count in use. Process-wide.
int useTensorThreads(int requested);

}  // namespace ascope
