#pragma once
// A temporary folder for the fixture files a data test writes, removed when the test ends.
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace ascope::testing {

class FixtureFolder {
 public:
  FixtureFolder() {
    static std::atomic<int> counter{0};
    root_ = std::filesystem::temp_directory_path() /
            ("attentionscope_data_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
  }
  ~FixtureFolder() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  FixtureFolder(const FixtureFolder&) = delete;
  FixtureFolder& operator=(const FixtureFolder&) = delete;

  /// The full path of `relative` inside the folder.
  std::string path(const std::string& relative = "") const { return (root_ / relative).string(); }

  /// Writes `bytes` to `relative` (creating its folders) and returns the full path.
  std::string write(const std::string& relative, std::string_view bytes) const {
    const auto file = root_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return file.string();
  }

  /// Creates the folder `relative` and returns its full path.
  std::string makeFolder(const std::string& relative) const {
    std::filesystem::create_directories(root_ / relative);
    return path(relative);
  }

 private:
  std::filesystem::path root_;
};

}  // namespace ascope::testing
