#pragma once
// Extracts a .tar.gz or .zip with libarchive, refusing entries that would land outside the target
// folder (absolute paths, ".." parts) and skipping everything that is not a plain file or folder
// (links, devices), so a hostile archive cannot write anywhere else.
#include <atomic>
#include <string>

#include "engine/core/expected.h"

namespace ascope {

class ArchiveExtractor {
 public:
  /// Extracts `archive_path` of type `archive_type` ("tar.gz" or "zip") into the existing
  /// `folder`. Files get mode 0644 and folders 0755 whatever the archive says. Errors name the
  /// archive and the reason (damaged or truncated data, an unsafe entry, a disk error,
  /// cancelled); whatever was extracted before stays, so callers extract into a folder of their
  /// own and remove it on error.
  static Status extract(const std::string& archive_path, const std::string& archive_type,
                        const std::string& folder, const std::atomic<bool>* cancel);

  /// True for a relative entry path without "..": "a/b.txt", "./a/" — not "/etc/x", "a/../../x".
  static bool isSafeEntryPath(const std::string& path);
};

}  // namespace ascope
