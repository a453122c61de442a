#include "engine/core/output_file.h"

#include <sys/stat.h>
#include <unistd.h>
#include <cstring>

#include <cerrno>
#include <filesystem>
#include <system_error>

#include "engine/core/atomic_file.h"
#include "engine/core/printable_text.h"
#include "engine/core/regular_file.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

/// Whether `path` (which exists) is `input` or lies under it.
bool isInput(const std::string& path, const struct stat& target, const CommandInput& input) {
  struct stat st {};
  if (::stat(input.path.c_str(), &st) != 0) return false;
  if (!S_ISDIR(st.st_mode)) return st.st_dev == target.st_dev && st.st_ino == target.st_ino;
  std::error_code ec;
  const fs::path folder = fs::canonical(input.path, ec);
  if (ec) return false;
  const fs::path file = fs::canonical(path, ec);
  if (ec) return false;
  const fs::path relative = file.lexically_relative(folder);
  return !relative.empty() && *relative.begin() != "..";
}

}  // namespace

Status checkOutputFile(const std::string& path, const std::vector<CommandInput>& inputs) {
  if (path.empty()) return Error{"an empty file name: give the file to write"};
  struct stat target {};
  const bool exists = ::lstat(path.c_str(), &target) == 0;
  if (!exists && errno != ENOENT)
    return Error{"cannot write " + path + ": " + std::strerror(errno)};
  if (exists && S_ISLNK(target.st_mode)) {
    std::string to(4096, '\0');
    const ssize_t n = ::readlink(path.c_str(), to.data(), to.size());
    to.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    return Error{path + " is a symbolic link" +
                 (to.empty() ? "" : " (to " + printableText(to) + ")") +
                 ": it is not replaced; to write where it points, give that file's own name"};
  }
  if (exists && S_ISDIR(target.st_mode)) return Error{path + " is a folder, not a file name"};
  if (exists && !S_ISREG(target.st_mode)) {
    return Error{path + " is " + fileKindName(target.st_mode) +
                 ", not a file: give the name of a file to write"};
  }
  const fs::path parent = fs::path(path).parent_path();
  const std::string folder = parent.empty() ? std::string(".") : parent.string();
  struct stat folder_status {};
  if (::stat(folder.c_str(), &folder_status) != 0 || !S_ISDIR(folder_status.st_mode)) {
    return Error{"cannot write " + path + ": no such folder " + folder};
  }
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    return Error{"cannot write " + path + ": " + folder + ": " + std::strerror(errno)};
  }
  if (!exists) return {};
  for (const CommandInput& input : inputs) {
    if (input.path.empty() || !isInput(path, target, input)) continue;
    const std::string what = input.what.empty() ? "a file" : input.what;
    struct stat st {};
    const bool folder_input = ::stat(input.path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    return Error{!folder_input
                     ? path + " is " + what + " this command reads: give another file name"
                     : path + " is in " + what + " (" + input.path +
                           ") that this command reads: give another file name"};
  }
  return {};
}

Status writeOutputFile(const std::string& path, const std::string& content,
                       const std::vector<CommandInput>& inputs) {
  if (Status s = checkOutputFile(path, inputs); !s.ok()) return s;
  return writeFileAtomically(path, content);
}

}  // namespace ascope
