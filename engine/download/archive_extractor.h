#pragma once
// Extracts a .tar.gz or .zip with libarchive, refusing archives with an entry that would land
// outside the target folder (absolute paths, ".." parts) or a link that leads outside it (a hard
// link whose target is not a file extracted before it, a symbolic link whose target leaves the
// folder), so a hostile archive cannot write anywhere else. Hard links between the archive's own
// files are extracted as hard links; symbolic links, devices and the like are skipped.
#include <atomic>
#include <string>

#include "engine/vocabulary/expected.h"

namespace ascope {

class ArchiveExtractor {
 public:
  /// Extracts `archive_path` of type `archive_type` ("tar.gz" or "zip") into the existing
  /// `folder`. Files get mode 0644 and folders 0755 whatever the archive says. Errors name the
  /// archive and the reason (damaged or truncated data, an unsafe entry or link, a disk error such
  /// as "disk full while extracting \"a/b.bin\": No space left on device", cancelled). The file
  /// being written when an error strikes is removed, but the ones extracted before stay, so
  /// callers extract into a folder of their own and remove it on error.
  static Status extract(const std::string& archive_path, const std::string& archive_type,
                        const std::string& folder, const std::atomic<bool>* cancel);

  /// True for a relative entry path without "..": "a/b.txt", "./a/" — not "/etc/x", "a/../../x".
  static bool isSafeEntryPath(const std::string& path);
};

}  // namespace ascope
