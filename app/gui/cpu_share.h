#pragma once
// How the desktop app shares the CPU between training and the window. Plain C++.

namespace ascope {

/// Leaves one core to the GUI thread: OpenBLAS (which Debian's LibTorch calls for matrix products)
/// otherwise runs one thread per core, and on a 2-core laptop every repaint preempts one of them
/// while the other waits at the end of the product: measured, the ViT laptop preset then trained
/// ~20 % slower with the window open than headless. With one core fewer for BLAS the GUI costs
/// less. OPENBLAS_NUM_THREADS, when set, wins. Call once at startup, before training starts.
/// Returns the BLAS thread count set, or 0 when the BLAS library in use is not OpenBLAS (nothing is
/// changed then).
int leaveOneCoreForTheGui();

}  // namespace ascope
