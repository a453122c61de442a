#include "engine/download/models/model_staging_folder.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "engine/core/folder_sync.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

}  // namespace

ModelStagingFolder::ModelStagingFolder(std::string target)
    : target_(std::move(target)), path_(target_ + ".part") {}

ModelStagingFolder::~ModelStagingFolder() {
  if (lock_fd_ < 0) return;
  // A download that failed before its first byte (a mistyped id) leaves nothing worth keeping;
  // rmdir removes only an empty folder, and nothing once it was moved into place.
  ::rmdir(path_.c_str());
  ::close(lock_fd_);  // releases the lock
}

Status ModelStagingFolder::open() {
  std::error_code ec;
  fs::create_directories(path_, ec);
  if (ec) return Error{path_ + ": cannot create the folder: " + ec.message()};
  lock_fd_ = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lock_fd_ < 0) return Error{path_ + ": cannot open: " + std::strerror(errno)};
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    return Error{path_ + ": another download of this model is running"};
  }
  return {};
}

std::string ModelStagingFolder::pathOf(const std::string& file) const {
  return (fs::path(path_) / file).string();
}

void ModelStagingFolder::removeAllBut(const std::vector<std::string>& keep) const {
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(path_, ec)) {
    const std::string name = entry.path().filename().string();
    if (std::find(keep.begin(), keep.end(), name) == keep.end()) {
      std::error_code ignored;
      fs::remove_all(entry.path(), ignored);
    }
  }
}

Status ModelStagingFolder::moveIntoPlace(bool replace_existing) {
  std::error_code ec;
  const fs::path aside = target_ + ".replaced";
  const bool set_aside = replace_existing && fs::exists(target_, ec);
  if (set_aside) {
    fs::remove_all(aside, ec);  // left by a crash
    fs::rename(target_, aside, ec);
    if (ec) return Error{target_ + ": cannot move the old model aside: " + ec.message()};
  }
  // rename(2) replaces an empty folder and refuses a non-empty one.
  fs::rename(path_, target_, ec);
  if (ec) {
    const std::string reason = ec.message();
    if (set_aside) fs::rename(aside, target_, ec);
    return Error{target_ + ": cannot move the downloaded model into place from " + path_ + ": " +
                 reason};
  }
  if (set_aside) fs::remove_all(aside, ec);
  syncFolder(fs::path(target_).parent_path().string());
  return {};
}

}  // namespace ascope
