#pragma once
// A rename or a new entry lives in its folder's entries, not in the file: without flushing the
// folder too, a power cut can leave the old name (or none) behind after a completed write.
#include <string>

namespace ascope {

/// Flushes `folder`'s entries to the disk ("" means the current folder). Best effort: a folder
/// that cannot be opened or flushed is left as it is.
void syncFolder(const std::string& folder);

}  // namespace ascope
