#pragma once
// Runs a command line through the shell as a user would and collects its stdout, its stderr
// (through a file: a pipe for each would need a poll loop) and its exit code.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace ascope::testing {

struct ShellOutcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// `command 2>err_path`, then the file's text as `err`.
inline ShellOutcome runShellCommand(const std::string& command, const std::string& err_path) {
  ShellOutcome outcome;
  FILE* pipe = popen((command + " 2>" + err_path).c_str(), "r");
  if (pipe == nullptr) return outcome;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) outcome.out += buffer.data();
  const int status = pclose(pipe);
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err(err_path);
  std::ostringstream text;
  text << err.rdbuf();
  outcome.err = text.str();
  return outcome;
}

}  // namespace ascope::testing
