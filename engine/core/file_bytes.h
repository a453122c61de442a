#pragma once
#include <cstdint>
#include <string>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// Dataset files are read whole into memory; past this a wrong path (a disk image, a video) is far
/// likelier than a corpus, and reading it would take the machine's memory first.
inline constexpr std::uint64_t kMaxDataFileBytes = std::uint64_t{2} << 30;

/// Reads a whole file in binary, so that parsers see every byte as it is on disk (no CRLF
/// translation, no stop at a NUL). Only regular files: a FIFO or device is refused before it is
/// opened (engine/core/regular_file.h). The error names the path and the reason.
Expected<std::string> readFileBytes(const std::string& path,
                                    std::uint64_t max_bytes = kMaxDataFileBytes);

}  // namespace ascope
