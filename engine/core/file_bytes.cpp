#include "engine/core/file_bytes.h"

#include "engine/core/regular_file.h"

namespace ascope {

Expected<std::string> readFileBytes(const std::string& path, std::uint64_t max_bytes) {
  return readRegularFile(path, max_bytes);
}

}  // namespace ascope
