#pragma once
#include <string>

#include "engine/core/expected.h"

namespace ascope {

/// Reads a whole file in binary, so that parsers see every byte as it is on disk (no CRLF
/// translation, no stop at a NUL). The error names the path and the reason.
Expected<std::string> readFileBytes(const std::string& path);

}  // namespace ascope
