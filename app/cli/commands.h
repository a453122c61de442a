#pragma once
#include <string>
#include <vector>

namespace ascope::cli {

/// Each returns the process exit code: 0 success, 1 the work failed, 2 bad command line.
int runTrain(const std::vector<std::string>& args);
int runInfer(const std::vector<std::string>& args);
int runBench(const std::vector<std::string>& args);
int runDownload(const std::vector<std::string>& args);

/// Prints "attentionscope-cli: <message>" to stderr and returns 2.
int usageError(const std::string& message, const std::string& command);

}  // namespace ascope::cli
