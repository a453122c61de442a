// When a session probes and generates: the stored timeline's steps always, the live cadence by
// steps or seconds, never more than the probes' share of the time, and generation rationed to a
// quarter of that share but never older than a tenth of the run. Time is handed in, so every
// case is exact.
#include <gtest/gtest.h>

#include "engine/train/probe_schedule.h"

namespace ascope {
namespace {

using Clock = ProbeSchedule::Clock;
using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(ProbeSchedule, TheCadenceBySteps) {
  ProbeSchedule schedule({50, 1e9, 1.0}, 1000);
  const Clock::time_point t0 = Clock::now();
  schedule.start(t0);
  schedule.probeBegan(0, t0);
  schedule.probeEnded(t0);
  EXPECT_FALSE(schedule.probeDue(49, false, t0));
  EXPECT_TRUE(schedule.probeDue(50, false, t0));
  EXPECT_TRUE(schedule.probeDue(7, /*stored=*/true, t0));
  // The probe sample changed: the next batch probes, whatever the cadence says.
  schedule.probeBegan(100, t0);
  EXPECT_FALSE(schedule.probeDue(120, false, t0));
  schedule.probeAtOnce();
  EXPECT_EQ(schedule.lastProbeStep(), -1);
  EXPECT_TRUE(schedule.probeDue(120, false, t0));
}

TEST(ProbeSchedule, ProbesKeepToTheirShareOfTheTimeButNotAtTheStoredSteps) {
  ProbeSchedule schedule({1, 5.0, 0.02}, 1000);
  const Clock::time_point t0 = Clock::now();
  schedule.start(t0);
  schedule.probeBegan(0, t0);
  schedule.probeEnded(t0 + seconds(1));  // a probe of 1 s: the next no sooner than 49 s later
  EXPECT_FALSE(schedule.probeDue(10, false, t0 + seconds(48)));
  EXPECT_TRUE(schedule.probeDue(10, true, t0 + seconds(48)));
  EXPECT_TRUE(schedule.probeDue(10, false, t0 + seconds(50)));
}

TEST(ProbeSchedule, TheCadenceBySeconds) {
  ProbeSchedule schedule({1000000, 5.0, 1.0}, 1000);
  const Clock::time_point t0 = Clock::now();
  schedule.start(t0);
  schedule.probeBegan(0, t0);
  schedule.probeEnded(t0 + milliseconds(10));
  EXPECT_FALSE(schedule.probeDue(3, false, t0 + milliseconds(4900)));
  EXPECT_TRUE(schedule.probeDue(3, false, t0 + seconds(5)));
}

TEST(ProbeSchedule, GenerationIsRationedButNeverOlderThanATenthOfTheRun) {
  ProbeSchedule schedule({1, 5.0, 0.4}, 1000);  // generation gets a tenth of the time
  const Clock::time_point t0 = Clock::now();
  EXPECT_TRUE(schedule.generationDue(0, /*never_made=*/true, true, t0));
  EXPECT_FALSE(schedule.generationDue(0, false, /*missing=*/false, t0));
  schedule.generated(10, t0, t0 + seconds(2));  // 2 s of decoding
  const Clock::time_point t1 = t0 + seconds(2);
  EXPECT_FALSE(schedule.generationDue(20, false, true, t1 + seconds(17)));
  EXPECT_TRUE(schedule.generationDue(20, false, true, t1 + seconds(18)));
  // A tenth of the run (100 steps) after the last generation, or the run's last step: at once.
  EXPECT_TRUE(schedule.generationDue(110, false, true, t1));
  EXPECT_TRUE(schedule.generationDue(1000, false, true, t1));
}

}  // namespace
}  // namespace ascope
