#include "engine/core/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>

namespace ascope {
namespace {

bool fsyncPath(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return false;
  const bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

Status renameIntoPlace(const std::string& tmp_path, const std::string& path) {
  if (!fsyncPath(tmp_path)) {
    std::remove(tmp_path.c_str());
    return Error{path + ": cannot flush to disk: " + std::strerror(errno)};
  }
  if (std::rename(tmp_path.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(tmp_path.c_str());
    return Error{path + ": cannot replace file: " + reason};
  }
  // The rename itself lives in the directory entry; flush that too so it survives a power cut.
  const auto dir = std::filesystem::path(path).parent_path();
  fsyncPath(dir.empty() ? std::string(".") : dir.string());
  return {};
}

}  // namespace

Status writeFileAtomically(const std::string& path, const std::string& content) {
  return writeFileAtomicallyWith(path, [&](const std::string& tmp_path) {
    std::ofstream out(tmp_path, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) throw std::runtime_error("write failed");
  });
}

Status writeFileAtomicallyWith(const std::string& path,
                               const std::function<void(const std::string& tmp_path)>& write) {
  const std::string tmp_path = path + ".tmp";
  try {
    write(tmp_path);
  } catch (const std::exception& e) {
    std::remove(tmp_path.c_str());
    return Error{path + ": cannot write: " + e.what()};
  }
  return renameIntoPlace(tmp_path, path);
}

}  // namespace ascope
