#pragma once
// A tiny run trained in this process by the CLI itself, for the in-process tests that ask a run
// something (`infer`, `explain`), and the JSON files those commands write.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <system_error>

#include "in_process_run.h"

namespace ascope::testing {

/// Of this process's own: ctest -j runs the same tests in other processes at the same time.
inline std::filesystem::path ownTemp(const std::string& name) {
  return std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
}

/// A tiny run of `task` trained for `steps`, removed with the test.
class TrainedRun {
 public:
  TrainedRun(const std::string& task, int steps,
             const std::string& prefix = "ascope_cli_attention_")
      : dir_(ownTemp(prefix + task)) {
    std::filesystem::remove_all(dir_);
    const CliOutcome o = runInProcess({"train", "--task", task, "--preset", "tiny", "--steps",
                                       std::to_string(steps), "--out", dir_.string()});
    EXPECT_EQ(o.exit_code, 0) << o.err;
  }
  ~TrainedRun() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  TrainedRun(const TrainedRun&) = delete;
  TrainedRun& operator=(const TrainedRun&) = delete;
  std::string dir() const { return dir_.string(); }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }

 private:
  std::filesystem::path dir_;
};

inline nlohmann::json readAttentionJson(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

}  // namespace ascope::testing
