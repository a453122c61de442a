#pragma once
// A run folder has one writer. It holds an exclusive flock() on <run>/.lock for the whole run; the
// file's text (pid, host, start time) only serves the message that refuses a second writer. The
// kernel drops the flock when its process dies, so a lock left by a crash blocks nobody: only its
// text is stale. flock() belongs to an open file description, so two locks taken in one process
// (two trainers in the GUI or a test) conflict just as two processes do.
#include <string>

#include "engine/vocabulary/expected.h"

namespace ascope {

class RunFolderLock {
 public:
  /// Takes the lock of `dir` (which must exist) without waiting. Refused while another writer
  /// holds it: "run folder DIR is in use by pid N since T (host H)".
  static Expected<RunFolderLock> acquire(const std::string& dir);

  RunFolderLock(RunFolderLock&& other) noexcept;
  RunFolderLock& operator=(RunFolderLock&& other) noexcept;
  RunFolderLock(const RunFolderLock&) = delete;
  RunFolderLock& operator=(const RunFolderLock&) = delete;
  ~RunFolderLock();

  /// Removes the lock file and unlocks; nothing when already released.
  void release();
  bool held() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }

 private:
  RunFolderLock(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::string path_;
};

}  // namespace ascope
