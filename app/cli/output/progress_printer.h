#pragma once
// A download's progress on stderr, shared by `download` and `download-model`.
#include <cstdint>

namespace ascope::cli {

/// Live progress on stderr: rewritten in place on a terminal, one line per tenth otherwise, e.g.
/// "  42%  71.2 / 170.1 MB  12.3 MB/s  ETA 0:08" (without percent and ETA when the size is
/// unknown).
class ProgressPrinter {
 public:
  ProgressPrinter();

  void update(std::int64_t done, std::int64_t total, double bytes_per_s);

  /// Ends the in-place line so that the next message starts on a line of its own.
  void endLine();

 private:
  bool tty_;
  bool line_shown_ = false;
  std::int64_t last_step_ = -1;
};

}  // namespace ascope::cli
