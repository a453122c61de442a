#pragma once
#include <functional>
#include <ostream>
#include <string>

#include "engine/core/expected.h"

namespace ascope {

/// Writes `path` atomically: the content goes to `path + ".tmp"`, is flushed and fsync'ed, then
/// renamed over `path`. A crash at any point leaves either the old file or the new one, never a
/// mix.
Status writeFileAtomically(const std::string& path, const std::string& content);

/// Same, for writers that stream into a file themselves (e.g. torch::save). `write` gets the temp
/// path and returns false (or throws) on failure; the temp file is removed then.
Status writeFileAtomicallyWith(const std::string& path,
                               const std::function<void(const std::string& tmp_path)>& write);

}  // namespace ascope
