#include "engine/core/atomic_file.h"

#include "engine/core/dead_process_leftovers.h"
#include "engine/core/folder_sync.h"
#include "engine/core/text_lines.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <regex>
#include <string_view>

namespace ascope {
namespace {

struct InjectedFailure {
  std::string path_part;
  int error_number = 0;
};

std::mutex injected_mutex;
std::optional<InjectedFailure> injected;  // guarded by injected_mutex

/// The errno a test asked `path` to fail with, 0 for none.
int injectedErrorFor(const std::string& path) {
  std::lock_guard lock(injected_mutex);
  if (!injected || path.find(injected->path_part) == std::string::npos) return 0;
  return injected->error_number;
}

std::string tempPathFor(const std::string& path) {
  static std::atomic<unsigned long> counter{0};
  return path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(++counter);
}

/// A full disk (or quota) is the one write error a person can fix without reading errno.
std::string writeError(const std::string& path, int error_number) {
  if (error_number == ENOSPC || error_number == EDQUOT) return "disk full while writing " + path;
  return "cannot write " + path + ": " + std::strerror(error_number);
}

/// The temp file of one atomic write. Removed unless commit() renamed it into place.
class TempFile {
 public:
  explicit TempFile(std::string path)
      : path_(std::move(path)), tmp_path_(tempPathFor(path_)), inject_(injectedErrorFor(path_)) {
    fd_ = ::open(tmp_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ < 0) error_ = errno;
  }
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(tmp_path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  /// After the first error the rest is dropped: see writeFileAtomicallyStreamed.
  void write(const void* data, std::size_t size) {
    const char* bytes = static_cast<const char*>(data);
    while (size > 0 && error_ == 0) {
      std::size_t chunk = size;
      if (inject_ != 0) chunk = size / 2;
      const ssize_t written = chunk == 0 ? 0 : ::write(fd_, bytes, chunk);
      if (written < 0) {
        if (errno == EINTR) continue;
        error_ = errno;
        return;
      }
      if (inject_ != 0) {
        error_ = inject_;
        return;
      }
      bytes += written;
      size -= static_cast<std::size_t>(written);
    }
  }

  void fail(const std::string& reason) {
    if (error_ == 0 && reason_.empty()) reason_ = reason;
  }

  Status commit() {
    if (!reason_.empty()) return Error{path_ + ": cannot write: " + reason_};
    if (error_ == 0 && ::fsync(fd_) != 0) error_ = errno;
    // close() may report a write-back error that fsync() did not (NFS, some FUSE file systems).
    if (fd_ >= 0 && ::close(fd_) != 0 && error_ == 0) error_ = errno;
    fd_ = -1;
    if (error_ != 0) return Error{writeError(path_, error_)};
    if (std::rename(tmp_path_.c_str(), path_.c_str()) != 0) {
      return Error{path_ + ": cannot replace file: " + std::strerror(errno)};
    }
    committed_ = true;
    // The rename itself lives in the directory entry; flush that too so it survives a power cut.
    syncFolder(std::filesystem::path(path_).parent_path().string());
    return {};
  }

  const std::string& tmpPath() const { return tmp_path_; }

 private:
  std::string path_, tmp_path_;
  int inject_ = 0;
  int fd_ = -1;
  int error_ = 0;
  std::string reason_;
  bool committed_ = false;
};

}  // namespace

Status writeFileAtomically(const std::string& path, const std::string& content) {
  return writeFileAtomicallyStreamed(
      path, [&](const ByteSink& sink) { sink(content.data(), content.size()); });
}

Status writeFileAtomicallyStreamed(const std::string& path,
                                   const std::function<void(const ByteSink& sink)>& produce) {
  TempFile file(path);
  try {
    produce([&file](const void* data, std::size_t size) { file.write(data, size); });
  } catch (const std::exception& e) {
    // LibTorch's messages carry a backtrace after the first line.
    file.fail(firstLine(e.what()));
  }
  return file.commit();
}

Status writeFileAtomicallyWith(const std::string& path,
                               const std::function<void(const std::string& tmp_path)>& write) {
  TempFile file(path);
  try {
    write(file.tmpPath());
  } catch (const std::exception& e) {
    file.fail(firstLine(e.what()));
  }
  return file.commit();
}

bool isAtomicWriteTempName(const std::string& file_name) {
  const std::size_t tmp = file_name.rfind(".tmp");
  if (tmp == std::string::npos || tmp == 0) return false;
  const std::string rest = file_name.substr(tmp + 4);
  if (rest.empty()) return true;
  // ".<pid>.<counter>"
  const std::size_t dot = rest.find('.', 1);
  if (rest[0] != '.' || dot == std::string::npos || dot == 1 || dot + 1 == rest.size()) {
    return false;
  }
  return rest.find_first_not_of("0123456789", 1) == dot &&
         rest.find_first_not_of("0123456789", dot + 1) == std::string::npos;
}

void removeTempFilesOfDeadWriters(const std::string& path) {
  const std::filesystem::path target(path);
  std::string escaped;  // the file's name, matched literally
  for (const char c : target.filename().string()) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) escaped += '\\';
    escaped += c;
  }
  const std::string folder = target.has_parent_path() ? target.parent_path().string() : ".";
  removeLeftoversOfDeadProcesses(folder, std::regex(escaped + "\\.tmp\\.([0-9]+)\\.[0-9]+"));
}

namespace atomic_file_testing {

void failWrites(const std::string& path_part, int error_number) {
  std::lock_guard lock(injected_mutex);
  injected = InjectedFailure{path_part, error_number};
}

void stopFailingWrites() {
  std::lock_guard lock(injected_mutex);
  injected.reset();
}

}  // namespace atomic_file_testing

}  // namespace ascope
