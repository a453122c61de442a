#include "engine/core/folder_sync.h"

#include <fcntl.h>
#include <unistd.h>

namespace ascope {

void syncFolder(const std::string& folder) {
  const std::string path = folder.empty() ? std::string(".") : folder;
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace ascope
