#include "engine/core/output_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "engine/core/atomic_file.h"
#include "engine/core/regular_file.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

/// Whether `file` lies under `folder` (both resolved).
bool liesUnder(const fs::path& file, const fs::path& folder) {
  const fs::path relative = file.lexically_relative(folder);
  return !relative.empty() && *relative.begin() != "..";
}

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
  return liesUnder(file, folder);
}

/// Whether the not-yet-existing `path` would be `input` (a run folder's bookmarks.json, say, which
/// a later read would then refuse) or a file under an input folder: compared by name, with the
/// folders resolved.
bool wouldBeInput(const std::string& path, const CommandInput& input) {
  std::error_code ec;
  const fs::path file = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) return false;
  const fs::path named = fs::weakly_canonical(fs::absolute(input.path, ec), ec);
  if (ec) return false;
  if (file == named) return true;
  return fs::is_directory(named, ec) && liesUnder(file, named);
}

}  // namespace

Status checkOutputFile(const std::string& path, const std::vector<CommandInput>& inputs) {
  if (path.empty()) return Error{"an empty file name: give the file to write"};
  struct stat target {};
  const bool exists = ::lstat(path.c_str(), &target) == 0;
  if (!exists && errno != ENOENT)
    return Error{"cannot write " + path + ": " + std::strerror(errno)};
  if (exists && S_ISLNK(target.st_mode)) {
    const std::string to = symbolicLinkTargetText(path);
    return Error{path + " is a symbolic link" + (to.empty() ? "" : " (to " + to + ")") +
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
  for (const CommandInput& input : inputs) {
    if (exists || input.path.empty() || !wouldBeInput(path, input)) continue;
    return Error{path + " is a name of " + (input.what.empty() ? "a file" : input.what) +
                 " this command reads (" + input.path + "): give another file name"};
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
  // A killed writer's temp files of this target go now: nothing else ever would.
  removeTempFilesOfDeadWriters(path);
  return writeFileAtomically(path, content);
}

}  // namespace ascope
