#pragma once
// The lines another process appends to a file (metrics.csv, head_stats.csv, log.txt of a run that
// is still training), read a piece at a time: each read returns only what was appended since the
// last one, in whole lines (a row being written is left for the next read). A file that was
// replaced or cut shorter since (a resumed run rewrites metrics.csv without the rows after its
// checkpoint) is read again from its start, and the read says so. Never blocks (O_NONBLOCK, a
// regular file only), never follows a symbolic link (a run folder's files are its own) and never
// writes.
#include <sys/types.h>

#include <cstdint>
#include <string>

#include "engine/vocabulary/expected.h"

namespace ascope {

class GrowingFileReader {
 public:
  explicit GrowingFileReader(std::string path) : path_(std::move(path)) {}

  /// Takes what the file holds now as read: the next read starts at its current end.
  void skipToEnd();

  struct Appended {
    std::string lines;      ///< whole lines, each ending in '\n' ("" when nothing new)
    bool replaced = false;  ///< the file was replaced or shrank: `lines` start at its beginning
  };
  /// What was appended since the last read, at most `max_bytes` (the rest comes with the next
  /// reads). A missing file reads as nothing new. Errors: not a regular file, unreadable.
  Expected<Appended> read(std::uint64_t max_bytes);

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  bool known_ = false;  ///< device and inode below are those of the file read so far
  dev_t device_ = 0;
  ino_t inode_ = 0;
  std::uint64_t offset_ = 0;
};

}  // namespace ascope
