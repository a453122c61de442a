// attentionscope-cli: train, infer and benchmark without a GUI (links the engine only).
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "engine/core/cpu_runtime.h"
#include "engine/core/openblas_kernels.h"
#include "engine/train/tensor_threads.h"

int main(int argc, char** argv) {
  ascope::relaunchWithMatchingOpenBlasKernels(argv);
  ascope::tuneCpuRuntime();
  ascope::useTensorThreads(0);  // --threads may change it for a run
  return ascope::cli::runCli(std::vector<std::string>(argv + 1, argv + argc));
}
