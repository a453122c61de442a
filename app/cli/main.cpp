// attentionscope-cli: train, infer and benchmark without a GUI (links the engine only).
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "engine/core/openblas_kernels.h"

int main(int argc, char** argv) {
  ascope::relaunchWithMatchingOpenBlasKernels(argv);
  return ascope::cli::runCli(std::vector<std::string>(argv + 1, argv + argc));
}
