#pragma once
// A temporary folder that outlives a test (a trainer thread may still write into it) and goes when
// the test program ends.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace ascope::testing {

/// Registers `dir` for removal at exit and returns it.
inline const std::string& removedAtExit(const std::string& dir) {
  struct Folders {
    std::vector<std::string> paths;
    ~Folders() {
      std::error_code ec;
      for (const std::string& path : paths) std::filesystem::remove_all(path, ec);
    }
  };
  static Folders folders;
  folders.paths.push_back(dir);
  return dir;
}

/// An empty path of this process's own under the temp folder, "<prefix>_<pid>" (ctest -j runs
/// tests in parallel processes), removed at exit. Not created.
inline std::string freshTempPath(const std::string& prefix) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / (prefix + "_" + std::to_string(::getpid()));
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return removedAtExit(dir.string());
}

}  // namespace ascope::testing
