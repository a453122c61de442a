#pragma once
// Ctrl-C or SIGTERM during a download cancels it (its part files are kept for resume, and what it
// created empty is removed) instead of killing the process, for `download` and `download-model`.
// Every request checks the flag at least ten times a second, so the command ends promptly at any
// stage; a second signal ends the process at once, for whoever cannot wait even that long.
#include <atomic>

namespace ascope::cli {

/// While an object lives, SIGINT and SIGTERM set the flag instead of ending the process.
class InterruptCancels {
 public:
  /// Clears the flag and installs the handlers.
  InterruptCancels();
  /// Puts the previous handlers back; the flag keeps its value.
  ~InterruptCancels();
  InterruptCancels(const InterruptCancels&) = delete;
  InterruptCancels& operator=(const InterruptCancels&) = delete;

  /// Set once SIGINT or SIGTERM arrived; lock-free, so a signal handler may set it.
  static const std::atomic<bool>& flag();
};

}  // namespace ascope::cli
