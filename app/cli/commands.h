#pragma once
// attentionscope-cli's commands, callable in-process (tests run them without starting the binary).
#include <string>
#include <vector>

namespace ascope::cli {

/// The whole command line after the program name, e.g. {"train", "--task", "fake", "--steps",
/// "5"}. Returns the process exit code: 0 success, 1 the work failed, 2 bad command line (one line
/// "attentionscope-cli: …" on stderr), 3 `train` stopped by SIGINT/SIGTERM with its checkpoint
/// written (continue with --resume).
int runCli(const std::vector<std::string>& args);

/// `download` alone, for tests/download's driver, which builds it without LibTorch: `args` are
/// those after "download".
int runDownload(const std::vector<std::string>& args);

/// `download-model` alone, for the same driver: `args` are those after "download-model".
int runDownloadModel(const std::vector<std::string>& args);

/// Prints "attentionscope-cli: <message> (see 'attentionscope-cli <command> --help')" to stderr
/// and returns 2.
int usageError(const std::string& message, const std::string& command);

}  // namespace ascope::cli
