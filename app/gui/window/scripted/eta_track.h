#pragma once
// How honest the toolbar's ETA was over a whole run: every time it changes, when the run would
// end by it (its middle and its range), kept on the session's clock; once the run has ended,
// how far the estimate ever was from the real end and how often the real end lay inside the
// stated range. bench/lecture_runs.sh prints both for the laptop run of each task.
#include <optional>
#include <vector>

namespace ascope {

class EtaTrack {
 public:
  /// At `now_s` (session clock), the run was said to need `left_s` more, between `low_s` and
  /// `high_s`.
  void add(double now_s, double left_s, double low_s, double high_s);

  struct Verdict {
    double worst_error = 0;        ///< |said end − real end| at its worst, as a share of the run
    double worst_at_s = 0;         ///< when (session clock)
    double worst_error_later = 0;  ///< the same once a tenth of the run had passed
    double in_range_share = 0;     ///< of the estimates, the share whose range held the real end
    std::size_t estimates = 0;
  };
  /// Against the run's real end at `end_s`, `start_s` its start (session clock); nullopt
  /// without estimates or with an empty run.
  std::optional<Verdict> verdict(double start_s, double end_s) const;

 private:
  struct Estimate {
    double at_s, end_s, low_end_s, high_end_s;
  };
  std::vector<Estimate> estimates_;
};

}  // namespace ascope
