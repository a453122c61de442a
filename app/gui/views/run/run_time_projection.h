#pragma once
// How long the run on screen will still take, from timing it on this device: the first steps give
// the time of a training step (the median of the recent ones, so a probe, a validation pass or a
// pause does not count as one); the first validation pass gives its own time (the gap it leaves
// between two steps), and the passes still to come and the final test on the whole held-out split
// are added at that cost. Before any pass has been timed one is estimated from the step time (a
// pass is forward only, about a third of a training step per sample). A FLOP count before the run
// (LongRunCheck) only decides whether to ask before a very long run; this is the figure shown.
// A step's time is the recent median blended with the run's whole average (a loaded machine's
// swings then move the estimate by a fraction of their size: the median alone made a 16-minute
// run's ETA jump between 6 and 20 minutes), and it is shown as a range ("about 6–8 min") from
// the recent median to the run's average, with a margin for what the machine will do that
// narrows as the run goes.
#include <QString>

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "engine/vocabulary/events.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {

class RunTimeProjection {
 public:
  /// Seconds still to go, from the shortest to the longest the recent steps make likely.
  struct Range {
    double low = 0;
    double high = 0;
  };

  /// Steps timed before there is an estimate at all.
  static constexpr int kTimedSteps = 8;

  /// A new run of `config` (its batch size, epochs and validation subset).
  void start(const TrainingConfig& config);
  /// The run's steps, in order, as they arrive (several per drain).
  void addSteps(const std::vector<StepMetrics>& steps);
  /// A validation pass ended at `step`; the gap before the next step is its time.
  void addEvaluation(std::int64_t step);

  /// Enough steps timed for an estimate.
  bool isTimed() const { return timed_steps_ >= kTimedSteps; }
  /// Seconds still to go, validation passes and the final test included; nullopt until timed.
  std::optional<double> secondsLeft() const;
  /// The range around secondsLeft(); nullopt until timed.
  std::optional<Range> rangeLeft() const;
  /// "about 6–8 min", "about 40–55 s", "about 7 min", "about 2–2.5 h".
  static QString rangeText(const Range& left);
  /// The whole run's time (done + left); nullopt until timed.
  std::optional<double> totalSeconds() const;
  /// Seconds of one training step: the recent median blended with the run's average; 0 until
  /// timed.
  double stepSeconds() const;
  /// Seconds of one validation pass, measured (or estimated before the first was).
  double evaluationSeconds() const;
  bool evaluationTimed() const { return evaluation_timed_; }
  /// For the log: "timed over the first 8 steps on this device: 0.27 s a step; the run should take
  /// about 6:02 (1264 steps, 16 validation passes of about 3 s each, estimated, and the final
  /// test)"
  QString note() const;

 private:
  /// Validation passes the run still makes after the newest step.
  int evaluationsLeft() const;
  /// The gap ending at `step` holds a validation pass: it is the pass's time, not a step's.
  void takeEvaluationGap(double gap);
  /// Seconds left at a step time of `step_s` and validation passes of `evaluation_s`.
  double secondsLeftAt(double step_s, double evaluation_s) const;
  /// Median of the recent steps' times.
  double recentMedian() const;
  /// Average step time over the whole run so far (pauses capped).
  double runAverage() const;

  struct Gap {
    std::int64_t step;  ///< the step the gap ends at
    double seconds;     ///< per step, from the previous step reported
    double counted;     ///< what it added to summed_s_ (capped)
  };
  TrainingConfig config_;
  std::optional<StepMetrics> last_;
  std::deque<Gap> recent_;  ///< the recent gaps between steps
  int timed_steps_ = 0;
  double summed_s_ = 0;  ///< every timed step's time, each capped (a pause is not a step)
  std::int64_t summed_steps_ = 0;
  std::optional<std::int64_t> evaluated_at_;  ///< a pass ended here; its gap not seen yet
  std::vector<double> passes_;                ///< every validation pass timed, seconds
  double evaluation_s_ = 0;                   ///< their median
  bool evaluation_timed_ = false;
  std::int64_t steps_per_epoch_ = 0;  ///< known once an epoch has ended
  int evaluations_done_ = 0;
};

}  // namespace ascope
