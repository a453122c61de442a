// attentionscope-cli: train, infer and benchmark without a GUI (links the engine only).
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "engine/core/openblas_kernels.h"

namespace {

constexpr const char* kUsage =
    "usage: attentionscope-cli <command> [options]\n"
    "\n"
    "commands:\n"
    "  train     train a task and write a run folder\n"
    "  infer     run a trained model on your own input\n"
    "  bench     time training steps of a task and preset\n"
    "  download  fetch a task's dataset (CIFAR-10, IMDB, OPUS Books en-it)\n"
    "\n"
    "'attentionscope-cli <command> --help' describes each command's options.\n";

}  // namespace

int main(int argc, char** argv) {
  ascope::relaunchWithMatchingOpenBlasKernels(argv);
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  try {
    if (args[0] == "train") return ascope::cli::runTrain(rest);
    if (args[0] == "infer") return ascope::cli::runInfer(rest);
    if (args[0] == "bench") return ascope::cli::runBench(rest);
    if (args[0] == "download") return ascope::cli::runDownload(rest);
  } catch (const std::exception& e) {
    // Never a stack dump: LibTorch errors carry a backtrace after the first line.
    std::string what = e.what();
    std::fprintf(stderr, "attentionscope-cli: %s\n", what.substr(0, what.find('\n')).c_str());
    return 1;
  }
  return ascope::cli::usageError("unknown command \"" + args[0] + "\"", "");
}
