#include "engine/core/run_folder_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <string>

namespace ascope {
namespace {

std::string now() {
  const std::time_t t = std::time(nullptr);
  std::tm local{};
  localtime_r(&t, &local);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &local);
  return text;
}

std::string hostName() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "?";
  return name;
}

/// The value after "key " on its own line of `text`, "" when missing.
std::string lockField(const std::string& text, const std::string& key) {
  const std::string prefix = key + " ";
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (text.compare(start, prefix.size(), prefix) == 0) {
      return text.substr(start + prefix.size(), end - start - prefix.size());
    }
    start = end + 1;
  }
  return {};
}

/// The holder's lock text (at most 1 KiB: three short lines).
std::string lockText(int fd) {
  char buffer[1024] = {};
  const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
  return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : "";
}

/// "pid 123 since 2026-11-21 14:03:22 (host box)" from the holder's lock file.
std::string describeHolder(int fd) {
  const std::string text = lockText(fd);
  const std::string pid = lockField(text, "pid");
  // The holder writes its text right after locking: it may not be there yet.
  if (pid.empty()) return "another process (it is just starting)";
  std::string holder = "pid " + pid;
  if (const std::string since = lockField(text, "since"); !since.empty())
    holder += " since " + since;
  if (const std::string host = lockField(text, "host"); !host.empty())
    holder += " (host " + host + ")";
  return holder;
}

/// Whether the lock text of `fd` names this process on this host.
bool heldByThisProcess(int fd) {
  const std::string text = lockText(fd);
  return lockField(text, "pid") == std::to_string(::getpid()) &&
         lockField(text, "host") == hostName();
}

}  // namespace

Expected<RunFolderLock> RunFolderLock::acquire(const std::string& dir) {
  const std::string path = dir + "/.lock";
  // A holder that releases removes the file; whoever opened it just before then locks a file that
  // no longer has a name, so the lock only counts when the name still leads to the locked file.
  for (int attempt = 0; attempt < 16; ++attempt) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
      return Error{"cannot lock run folder " + dir + ": " + path + ": " + std::strerror(errno)};
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      const std::string holder = error == EWOULDBLOCK ? describeHolder(fd) : "";
      ::close(fd);
      if (error == EWOULDBLOCK) return Error{"run folder " + dir + " is in use by " + holder};
      return Error{"cannot lock run folder " + dir + ": " + path + ": " + std::strerror(error)};
    }
    struct stat opened {};
    struct stat named {};
    if (::fstat(fd, &opened) != 0 || ::stat(path.c_str(), &named) != 0 ||
        opened.st_ino != named.st_ino || opened.st_dev != named.st_dev) {
      ::close(fd);
      continue;
    }
    const std::string text =
        "pid " + std::to_string(::getpid()) + "\nhost " + hostName() + "\nsince " + now() + "\n";
    // The text only feeds the message for a second writer: on a full disk the lock holds without.
    if (::ftruncate(fd, 0) == 0) {
      [[maybe_unused]] const ssize_t written = ::pwrite(fd, text.data(), text.size(), 0);
    }
    return RunFolderLock(fd, path);
  }
  return Error{"cannot lock run folder " + dir + ": " + path +
               " keeps being replaced by other processes"};
}

RunFolderWriterState RunFolderLock::inspect(const std::string& dir) {
  using Kind = RunFolderWriterState::Kind;
  const std::string path = dir + "/.lock";
  // Read-only and non-blocking: a reader never writes into the folder, and a FIFO put there
  // would block open() itself.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return {errno == ENOENT ? Kind::kNone : Kind::kAbandoned, ""};
  struct stat opened {};
  if (::fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode)) {
    ::close(fd);
    return {Kind::kAbandoned, ""};
  }
  RunFolderWriterState state;
  if (::flock(fd, LOCK_SH | LOCK_NB) != 0) {
    state = {errno == EWOULDBLOCK ? Kind::kWriting : Kind::kAbandoned, describeHolder(fd)};
    state.held_here = state.kind == Kind::kWriting && heldByThisProcess(fd);
  } else {
    ::flock(fd, LOCK_UN);
    // A holder that released just now unlinked the file after we opened it: nobody writes.
    struct stat named {};
    const bool still_named = ::stat(path.c_str(), &named) == 0 && named.st_ino == opened.st_ino &&
                             named.st_dev == opened.st_dev;
    state = {still_named ? Kind::kAbandoned : Kind::kNone, still_named ? describeHolder(fd) : ""};
  }
  ::close(fd);
  return state;
}

RunFolderLock::RunFolderLock(RunFolderLock&& other) noexcept
    : fd_(other.fd_), path_(std::move(other.path_)) {
  other.fd_ = -1;
}

RunFolderLock& RunFolderLock::operator=(RunFolderLock&& other) noexcept {
  if (this != &other) {
    release();
    fd_ = other.fd_;
    path_ = std::move(other.path_);
    other.fd_ = -1;
  }
  return *this;
}

RunFolderLock::~RunFolderLock() {
  release();
}

void RunFolderLock::release() {
  if (fd_ < 0) return;
  // Unlinked while still locked, so that nobody can lock this file after us and think it theirs.
  ::unlink(path_.c_str());
  ::close(fd_);
  fd_ = -1;
}

}  // namespace ascope
