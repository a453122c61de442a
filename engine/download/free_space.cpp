#include "engine/download/free_space.h"

#include <sys/statvfs.h>

#include <limits>

namespace ascope {
namespace {

std::int64_t bytesOf(const struct statvfs& info) {
  const unsigned long long blocks = info.f_bavail;
  const unsigned long long block_size = info.f_frsize != 0 ? info.f_frsize : info.f_bsize;
  const auto most = static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max());
  if (block_size != 0 && blocks > most / block_size)
    return std::numeric_limits<std::int64_t>::max();
  return static_cast<std::int64_t>(blocks * block_size);
}

}  // namespace

std::int64_t freeBytesOf(int fd) {
  struct statvfs info {};
  return ::fstatvfs(fd, &info) == 0 ? bytesOf(info) : -1;
}

std::int64_t freeBytesAt(const std::string& path) {
  struct statvfs info {};
  return ::statvfs(path.c_str(), &info) == 0 ? bytesOf(info) : -1;
}

}  // namespace ascope
