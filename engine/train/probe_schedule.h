#pragma once
// When a session probes attention, and when a probe also generates the predictions its task
// leaves out (translations, decoded token by token): the session's clock and cadence, apart from
// the loop. Watching must not slow training down, so probes get at most `probe_time_share` of
// the wall time and generation a quarter of that — except at the stored timeline's steps, which
// are probed whatever it costs (a probe is made cheap, not rare), and at a run's last step.
#include <chrono>
#include <cstdint>

namespace ascope {

class ProbeSchedule {
 public:
  using Clock = std::chrono::steady_clock;

  struct Cadence {
    std::int64_t every_steps = 50;  ///< TrainingConfig::probe_every_steps …
    double every_seconds = 5.0;     ///< … or probe_every_seconds, whichever comes first
    double time_share = 0.02;       ///< probe_time_share (1 = no limit)
  };

  ProbeSchedule(Cadence cadence, std::int64_t total_steps);

  /// The session starts at `now`: the first probe's time share counts from here.
  void start(Clock::time_point now);
  /// Whether to probe at `step` (`stored`: a step of the stored timeline, always probed).
  bool probeDue(std::int64_t step, bool stored, Clock::time_point now) const;
  /// A probe began at `step` and `now` (a failed one is not retried at once) …
  void probeBegan(std::int64_t step, Clock::time_point now);
  /// … and ended at `now`: its cost rations the next.
  void probeEnded(Clock::time_point now);
  /// The step probed last (-1: none yet, or the probe sample changed and is due at once).
  std::int64_t lastProbeStep() const { return last_probe_step_; }
  /// The probe sample changed: the next batch probes.
  void probeAtOnce() { last_probe_step_ = -1; }

  /// Whether the probe at `step` also generates: `never_made`, a sample was never generated;
  /// `missing`, a sample of the probe set has no prediction of its own.
  bool generationDue(std::int64_t step, bool never_made, bool missing, Clock::time_point now) const;
  /// Predictions were generated at `step`, from `began` to `now`.
  void generated(std::int64_t step, Clock::time_point began, Clock::time_point now);

 private:
  static double seconds(Clock::time_point from, Clock::time_point to);

  Cadence cadence_;
  std::int64_t total_steps_;
  std::int64_t last_probe_step_ = -1;
  Clock::time_point last_probe_time_;
  double last_probe_cost_s_ = 0;  ///< how long the last probe took
  std::int64_t last_generation_step_ = -1;
  Clock::time_point last_generation_time_;
  double last_generation_cost_s_ = 0;
};

}  // namespace ascope
