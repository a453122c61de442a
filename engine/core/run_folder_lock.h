#pragma once
// A run folder has one writer. It holds an exclusive flock() on <run>/.lock for the whole run; the
// file's text (pid, host, start time) only serves the message that refuses a second writer. The
// kernel drops the flock when its process dies, so a lock left by a crash blocks nobody: only its
// text is stale. flock() belongs to an open file description, so two locks taken in one process
// (two trainers in the GUI or a test) conflict just as two processes do.
#include <string>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// Whether a process is writing a run folder, as a reader sees it (RunFolderLock::inspect).
struct RunFolderWriterState {
  enum class Kind {
    kNone,       ///< no .lock: nobody writes the folder (or a writer released it)
    kWriting,    ///< a process holds the lock now
    kAbandoned,  ///< .lock is there but nobody holds it: its writer died without releasing it
  };
  Kind kind = Kind::kNone;
  /// The holder's own words: "pid 123 since 2026-11-21 14:03:22 (host box)" ("" for kNone).
  std::string holder;
  /// Whether the holder is this very process (the window ablating the run it trains): its pid and
  /// host are ours.
  bool held_here = false;
};

class RunFolderLock {
 public:
  /// Who writes `dir`, without writing anything there. It takes a shared lock for an instant to
  /// learn whether the exclusive one is held (flock() works on a network file system too, where
  /// a writer on another machine holds it); a writer that starts in that instant is refused as
  /// if the folder were in use, with the usual message. Never blocks (the .lock may be a FIFO).
  static RunFolderWriterState inspect(const std::string& dir);

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
