#pragma once
// Runs the built attentionscope-cli (test_paths::cliProgram()) as a user would, through a shell,
// and collects what it printed and its exit code.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>
#include "test_paths.h"

namespace ascope::cli_test {

struct Outcome {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

/// `attentionscope-cli ARGS 2>&1`; ARGS are shell words.
inline Outcome runCli(const std::string& args) {
  const std::string command = std::string(test_paths::cliProgram()) + " " + args + " 2>&1";
  Outcome out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) out.output += buffer.data();
  const int status = pclose(pipe);
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

}  // namespace ascope::cli_test
