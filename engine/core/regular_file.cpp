#include "engine/core/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cstring>

#include <algorithm>
#include <cerrno>
#include <cstdio>

#include "engine/core/printable_text.h"

namespace ascope {
namespace {

std::string whatItIs(mode_t mode) {
  if (S_ISFIFO(mode) || S_ISCHR(mode) || S_ISBLK(mode) || S_ISSOCK(mode)) {
    return fileKindName(mode);
  }
  return "not a file";
}

Status checkMode(const std::string& path, mode_t mode) {
  if (S_ISREG(mode)) return {};
  // Kept as the readers have always said it: tests and people know this message.
  if (S_ISDIR(mode)) return Error{path + ": is a folder, not a file"};
  return Error{path + " is not a regular file (" + whatItIs(mode) + ")"};
}

/// Closes the descriptor on every path out of the readers.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

/// Opens `path` for reading only once it is known to be a regular file; `size` gets its size.
Expected<int> openChecked(const std::string& path, std::uint64_t& size, Links links) {
  if (Status s = requireRegularFile(path, links); !s.ok()) return Error{s.error()};
  // O_NONBLOCK: should the path turn into a FIFO between stat() and open(), open() returns at
  // once instead of waiting for a writer, and the fstat() below refuses it. O_NOFOLLOW: the same
  // for a link swapped in.
  const int fd = ::open(
      path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | (links == Links::kRefuse ? O_NOFOLLOW : 0));
  if (fd < 0) {
    const int error = errno;
    if (error == ELOOP && links == Links::kRefuse) {
      if (Status s = refuseSymbolicLink(path); !s.ok()) return Error{s.error()};
    }
    return Error{path + ": cannot open: " + std::strerror(error)};
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    ::close(fd);
    return Error{path + ": cannot read its size: " + std::strerror(error)};
  }
  if (Status s = checkMode(path, st.st_mode); !s.ok()) {
    ::close(fd);
    return Error{s.error()};
  }
  size = static_cast<std::uint64_t>(st.st_size);
  return fd;
}

/// Reads up to `count` bytes at `offset`; fewer when the file was shortened meanwhile.
Expected<std::string> readAt(int fd, const std::string& path, std::uint64_t offset,
                             std::uint64_t count) {
  std::string bytes(static_cast<std::size_t>(count), '\0');
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n =
        ::pread(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error{path + ": read failed after " + std::to_string(done) +
                   " bytes: " + std::strerror(errno)};
    }
    if (n == 0) break;  // shortened since fstat(): what is there is what the file holds
    done += static_cast<std::size_t>(n);
  }
  bytes.resize(done);
  return bytes;
}

}  // namespace

Status requireRegularFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return Error{path + ": cannot open: " + std::strerror(errno)};
  }
  return checkMode(path, st.st_mode);
}

Status requireRegularFile(const std::string& path, Links links) {
  if (links == Links::kFollow) return requireRegularFile(path);
  if (Status s = refuseSymbolicLink(path); !s.ok()) return s;
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    return Error{path + ": cannot open: " + std::strerror(errno)};
  }
  return checkMode(path, st.st_mode);
}

std::string symbolicLinkTargetText(const std::string& path) {
  std::string target(4096, '\0');
  const ssize_t n = ::readlink(path.c_str(), target.data(), target.size());
  target.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return target.empty() ? target : printableText(target);
}

Status refuseSymbolicLink(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return {};
  const std::string target = symbolicLinkTargetText(path);
  return Error{path + " is a symbolic link" + (target.empty() ? "" : " (to " + target + ")") +
               ": a run folder's files must be its own, not links to files elsewhere; remove "
               "the link (or put the file itself in its place) and try again"};
}

std::string fileKindName(unsigned mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISDIR(mode)) return "a folder";
  return "a file";
}

std::string describeByteCount(std::uint64_t bytes) {
  constexpr std::uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;
  const auto scaled = [bytes](std::uint64_t unit, const char* name) {
    char text[32];
    if (bytes % unit == 0) {
      std::snprintf(text, sizeof text, "%llu %s", static_cast<unsigned long long>(bytes / unit),
                    name);
    } else {
      std::snprintf(text, sizeof text, "%.1f %s", static_cast<double>(bytes) / unit, name);
    }
    return std::string(text);
  };
  if (bytes >= kGiB) return scaled(kGiB, "GiB");
  if (bytes >= kMiB) return scaled(kMiB, "MiB");
  if (bytes >= kKiB) return scaled(kKiB, "KiB");
  return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

Expected<std::string> readRegularFile(const std::string& path, std::uint64_t max_bytes,
                                      Links links) {
  std::uint64_t size = 0;
  Expected<int> fd = openChecked(path, size, links);
  if (!fd.ok()) return Error{fd.error()};
  const Descriptor owner(*fd);
  if (size > max_bytes) {
    return Error{path + " is " + describeByteCount(size) + ", over the " +
                 describeByteCount(max_bytes) + " limit for this file"};
  }
  return readAt(owner.get(), path, 0, size);
}

Expected<FileTail> readRegularFileTail(const std::string& path, std::uint64_t max_bytes,
                                       Links links) {
  std::uint64_t size = 0;
  Expected<int> fd = openChecked(path, size, links);
  if (!fd.ok()) return Error{fd.error()};
  const Descriptor owner(*fd);
  const std::uint64_t offset = size > max_bytes ? size - max_bytes : 0;
  Expected<std::string> bytes = readAt(owner.get(), path, offset, size - offset);
  if (!bytes.ok()) return Error{bytes.error()};
  return FileTail{std::move(*bytes), offset > 0};
}

Expected<std::string> readRegularFileHead(const std::string& path, std::uint64_t max_bytes,
                                          Links links) {
  std::uint64_t size = 0;
  Expected<int> fd = openChecked(path, size, links);
  if (!fd.ok()) return Error{fd.error()};
  const Descriptor owner(*fd);
  return readAt(owner.get(), path, 0, std::min(size, max_bytes));
}

}  // namespace ascope
