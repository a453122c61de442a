// `attentionscope-cli download` without the rest of the CLI, so that its test needs no LibTorch:
// the same runDownload() the real CLI dispatches to, and a copy of the CLI's usageError().
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/commands.h"

namespace ascope::cli {

// Also declared in commands.h; repeated here so the driver builds before main.cpp dispatches to it.
int runDownload(const std::vector<std::string>& args);

int usageError(const std::string& message, const std::string& command) {
  std::fprintf(stderr, "attentionscope-cli: %s (see 'attentionscope-cli %s--help')\n",
               message.c_str(), command.empty() ? "" : (command + " ").c_str());
  return 2;
}

}  // namespace ascope::cli

/// Takes the CLI's command line, "download <args>", like main.cpp does.
int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) != "download") {
    std::fputs("usage: download_command_driver download [args]\n", stderr);
    return 2;
  }
  return ascope::cli::runDownload(std::vector<std::string>(argv + 2, argv + argc));
}
