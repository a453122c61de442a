// `attentionscope-cli download` and `download-model` without the rest of the CLI, so that their
// tests need no LibTorch: the same runDownload() and runDownloadModel() the real CLI dispatches
// to, and a copy of the CLI's usageError().
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/commands.h"

namespace ascope::cli {

// Also declared in commands.h; repeated here so the driver builds before main.cpp dispatches to it.
int runDownload(const std::vector<std::string>& args);
int runDownloadModel(const std::vector<std::string>& args);

int usageError(const std::string& message, const std::string& command) {
  std::fprintf(stderr, "attentionscope-cli: %s (see 'attentionscope-cli %s--help')\n",
               message.c_str(), command.empty() ? "" : (command + " ").c_str());
  return 2;
}

}  // namespace ascope::cli

/// Takes the CLI's command line, "download <args>" or "download-model <args>", like main.cpp does.
int main(int argc, char** argv) {
  const std::string command = argc < 2 ? "" : argv[1];
  const std::vector<std::string> args(argv + std::min(argc, 2), argv + argc);
  if (command == "download") return ascope::cli::runDownload(args);
  if (command == "download-model") return ascope::cli::runDownloadModel(args);
  std::fputs("usage: download_command_driver download|download-model [args]\n", stderr);
  return 2;
}
