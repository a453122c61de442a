#include "engine/train/probe_schedule.h"

#include <algorithm>

namespace ascope {

ProbeSchedule::ProbeSchedule(Cadence cadence, std::int64_t total_steps)
    : cadence_(cadence), total_steps_(total_steps) {}

double ProbeSchedule::seconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

void ProbeSchedule::start(Clock::time_point now) {
  last_probe_time_ = now;
}

bool ProbeSchedule::probeDue(std::int64_t step, bool stored, Clock::time_point now) const {
  // The stored timeline's steps are probed whatever the time share: runs of one length must share
  // their snapshot steps to be compared.
  if (stored) return true;
  const double since = seconds(last_probe_time_, now);
  // A probe set of a large model (greedy decoding of four sentences through twelve layers on a
  // CPU) can take seconds, and probing it every 5 s would cost a third of the run.
  const double share = cadence_.time_share;
  if (share < 1.0 && since * share < last_probe_cost_s_ * (1.0 - share)) return false;
  return step - last_probe_step_ >= cadence_.every_steps || since >= cadence_.every_seconds;
}

void ProbeSchedule::probeBegan(std::int64_t step, Clock::time_point now) {
  last_probe_step_ = step;
  last_probe_time_ = now;
}

void ProbeSchedule::probeEnded(Clock::time_point now) {
  last_probe_cost_s_ = seconds(last_probe_time_, now);
}

bool ProbeSchedule::generationDue(std::int64_t step, bool never_made, bool missing,
                                  Clock::time_point now) const {
  if (never_made) return true;  // a sample never translated yet
  if (!missing) return false;
  if (step >= total_steps_) return true;  // the run's last word
  // Never older than a tenth of the run: a lecturer scrubbing to step 150 should not read the
  // gibberish of step 0 as the model's translation.
  if (step - last_generation_step_ >= std::max<std::int64_t>(1, total_steps_ / 10)) return true;
  // Decoding token by token costs as much as dozens of attention probes: in between, the
  // generated predictions get a quarter of the probes' time share, and carry their step.
  const double share = cadence_.time_share / 4;
  return share >= 0.5 ||
         seconds(last_generation_time_, now) * share >= last_generation_cost_s_ * (1.0 - share);
}

void ProbeSchedule::generated(std::int64_t step, Clock::time_point began, Clock::time_point now) {
  last_generation_step_ = step;
  last_generation_time_ = now;
  last_generation_cost_s_ = seconds(began, now);
}

}  // namespace ascope
