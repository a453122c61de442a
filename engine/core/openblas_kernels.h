#pragma once
// OpenBLAS picks its matrix kernels from the CPU model at load time. Debian 12's OpenBLAS 0.3.21
// does not know CPUs newer than itself (e.g. Sapphire Rapids) and falls back to its generic
// "Prescott" SSE3 kernels, which made every training step here ~1.8x slower than with the AVX2
// kernels the CPU can run (measured: ViT laptop preset 60 ms → 33 ms per step). The kernel can only
// be chosen before the library loads, through OPENBLAS_CORETYPE, hence a relaunch.

namespace ascope {

/// When OpenBLAS runs generic pre-AVX2 kernels on a CPU with AVX2 and FMA, and the user has not
/// chosen OPENBLAS_CORETYPE, re-executes this program with OPENBLAS_CORETYPE=Haswell (same
/// arguments, same process id) and does not return. Otherwise, or when the relaunch fails,
/// returns and nothing changes. Call first thing in main(), before any thread starts.
void relaunchWithMatchingOpenBlasKernels(char** argv);

/// The kernel set OpenBLAS uses ("Haswell", "Prescott", …), or "" when the BLAS is not OpenBLAS.
const char* openBlasKernelName();

}  // namespace ascope
