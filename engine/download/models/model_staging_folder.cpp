#include "engine/download/models/model_staging_folder.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "engine/core/folder_sync.h"
#include "engine/core/json_file.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

/// Lists the files of a replacement in progress; only ever in the staging folder.
constexpr const char* kJournalName = ".replacing.json";
constexpr JsonLimits kJournalLimits{64 * 1024, 4};

bool isEmptyFolder(const std::string& folder) {
  std::error_code ec;
  return fs::is_directory(folder, ec) && fs::is_empty(folder, ec) && !ec;
}

/// A bare file name: what the journal may list (it is read back from the disk).
bool isPlainName(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
         name.find('\0') == std::string::npos;
}

Expected<std::vector<std::string>> namesOf(const nlohmann::json& journal, const char* key,
                                           const std::string& path) {
  const auto list = journal.find(key);
  if (list == journal.end() || !list->is_array()) {
    return Error{path + ": no \"" + std::string(key) + "\" list"};
  }
  std::vector<std::string> names;
  for (const nlohmann::json& name : *list) {
    if (!name.is_string() || !isPlainName(name.get<std::string>())) {
      return Error{path + ": \"" + std::string(key) + "\" holds something that is not a file name"};
    }
    names.push_back(name.get<std::string>());
  }
  return names;
}

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

std::string ModelStagingFolder::journalPath() const {
  return pathOf(kJournalName);
}

bool ModelStagingFolder::hasInterruptedReplacement(const std::string& target) {
  std::error_code ec;
  return fs::exists(fs::path(target + ".part") / kJournalName, ec);
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

Status ModelStagingFolder::moveIntoPlace(const std::vector<std::string>& files,
                                         const std::vector<std::string>& superseded) {
  std::error_code ec;
  if (!fs::exists(target_, ec) || isEmptyFolder(target_)) {
    // rename(2) replaces an empty folder and refuses a non-empty one.
    fs::rename(path_, target_, ec);
    if (ec) {
      return Error{target_ + ": cannot move the downloaded model into place from " + path_ + ": " +
                   ec.message()};
    }
    syncFolder(fs::path(target_).parent_path().string());
    return {};
  }
  const nlohmann::json journal = {{"files", files}, {"superseded", superseded}};
  if (Status written = writeJsonFile(journalPath(), journal); !written) return written;
  syncFolder(path_);
  return replaceFiles(files, superseded);
}

Status ModelStagingFolder::finishInterruptedReplacement() {
  const std::string path = journalPath();
  std::error_code ec;
  if (!fs::exists(path, ec)) return {};
  Expected<nlohmann::json> journal = readJsonFile(path, kJournalLimits);
  if (journal.ok() && !journal->is_object()) journal = Error{path + ": not a JSON object"};
  Expected<std::vector<std::string>> files =
      journal.ok() ? namesOf(*journal, "files", path) : Error{journal.error()};
  Expected<std::vector<std::string>> superseded =
      files.ok() ? namesOf(*journal, "superseded", path) : Error{files.error()};
  if (!superseded.ok()) {
    return Error{superseded.error() + "; the replacement of " + target_ +
                 " it describes cannot be finished: remove " + path_ + " and download again"};
  }
  spdlog::warn("{}: finishing the replacement of its model that a previous run began", target_);
  return replaceFiles(*files, *superseded);
}

Status ModelStagingFolder::replaceFiles(const std::vector<std::string>& files,
                                        const std::vector<std::string>& superseded) {
  const fs::path target(target_);
  std::error_code ec;
  // Each rename replaces one file whole; a file no longer here was moved by an earlier attempt.
  for (const std::string& name : files) {
    const fs::path staged = pathOf(name);
    if (!fs::exists(fs::symlink_status(staged, ec))) continue;
    fs::rename(staged, target / name, ec);
    if (ec) {
      return Error{(target / name).string() + ": cannot replace it with " + staged.string() + ": " +
                   ec.message() + " (run again to finish)"};
    }
  }
  for (const std::string& name : superseded) {
    if (!fs::exists(fs::symlink_status(target / name, ec))) continue;
    spdlog::info("{}: removed; the new model has no {}", (target / name).string(), name);
    fs::remove(target / name, ec);
    if (ec) {
      return Error{(target / name).string() + ": cannot remove the old model's file: " +
                   ec.message() + " (run again to finish)"};
    }
  }
  syncFolder(target_);
  fs::remove(journalPath(), ec);
  syncFolder(path_);
  return {};
}

}  // namespace ascope
