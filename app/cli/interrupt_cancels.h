#pragma once
// Ctrl-C during a download cancels it (its part file is kept for resume) instead of killing the
// process, for `download` and `download-model`.
#include <atomic>

namespace ascope::cli {

/// While an object lives, SIGINT sets the flag instead of ending the process.
class InterruptCancels {
 public:
  /// Clears the flag and installs the handler.
  InterruptCancels();
  /// Puts the previous handler back; the flag keeps its value.
  ~InterruptCancels();
  InterruptCancels(const InterruptCancels&) = delete;
  InterruptCancels& operator=(const InterruptCancels&) = delete;

  /// Set once SIGINT arrived; lock-free, so a signal handler may set it.
  static const std::atomic<bool>& flag();

 private:
  void (*previous_)(int);
};

}  // namespace ascope::cli
