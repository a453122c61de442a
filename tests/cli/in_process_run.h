#pragma once
// Runs the CLI in this process, capturing what it prints (tests of the cli_in_process_tests
// binary).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/cli/commands.h"

namespace ascope::testing {

struct CliOutcome {
  int exit_code = -1;
  std::string out, err;
};

inline CliOutcome runInProcess(const std::vector<std::string>& args) {
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  CliOutcome o;
  o.exit_code = cli::runCli(args);
  o.out = ::testing::internal::GetCapturedStdout();
  o.err = ::testing::internal::GetCapturedStderr();
  return o;
}

}  // namespace ascope::testing
