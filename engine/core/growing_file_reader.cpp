#include "engine/core/growing_file_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "engine/core/regular_file.h"

namespace ascope {

void GrowingFileReader::skipToEnd() {
  struct stat status {};
  if (::lstat(path_.c_str(), &status) != 0 || !S_ISREG(status.st_mode)) {
    known_ = false;
    offset_ = 0;
    return;
  }
  known_ = true;
  device_ = status.st_dev;
  inode_ = status.st_ino;
  offset_ = static_cast<std::uint64_t>(status.st_size);
}

Expected<GrowingFileReader::Appended> GrowingFileReader::read(std::uint64_t max_bytes) {
  Appended out;
  // O_NOFOLLOW: the file is the run folder's own; a link in its place (to /etc/passwd, to a
  // key) is refused by name, never read.
  const int fd = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    const int error = errno;
    if (error == ENOENT) return out;  // not written yet, or being replaced this instant
    if (error == ELOOP) {
      if (Status s = refuseSymbolicLink(path_); !s.ok()) return Error{s.error()};
    }
    return Error{path_ + ": cannot open: " + std::strerror(error)};
  }
  struct stat status {};
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
    ::close(fd);
    return Error{path_ + " is not a regular file"};
  }
  const auto size = static_cast<std::uint64_t>(status.st_size);
  if (known_ && (status.st_dev != device_ || status.st_ino != inode_ || size < offset_)) {
    out.replaced = true;
    offset_ = 0;
  } else if (!known_ && offset_ > 0) {
    offset_ = 0;  // skipToEnd found no file; this one appeared since
  }
  known_ = true;
  device_ = status.st_dev;
  inode_ = status.st_ino;
  const std::uint64_t wanted = std::min<std::uint64_t>(size - std::min(size, offset_), max_bytes);
  std::string bytes(wanted, '\0');
  std::size_t got = 0;
  while (got < wanted) {
    const ssize_t n =
        ::pread(fd, bytes.data() + got, wanted - got, static_cast<off_t>(offset_ + got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  bytes.resize(got);
  const std::size_t last_newline = bytes.rfind('\n');
  if (last_newline == std::string::npos) {
    // A line longer than a whole read is no row of ours: passed over, so reading moves on.
    if (got == max_bytes) offset_ += got;
    return out;
  }
  bytes.resize(last_newline + 1);
  offset_ += bytes.size();
  out.lines = std::move(bytes);
  return out;
}

}  // namespace ascope
