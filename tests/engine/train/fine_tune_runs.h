#pragma once
// What the fine-tuning tests of the pretrained tasks share: a repeatable short run on a tiny
// Hugging Face fixture, everything it reports, and the interrupted-then-resumed run they compare
// with an uninterrupted one.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "engine/tasks/registry/task_registry.h"
#include "engine/train/trainer.h"
#include "test_paths.h"
#include "tests/engine/removed_at_exit.h"
#include "trainer_drain.h"

namespace ascope::testing {

/// The Hugging Face model folder `name` among the test fixtures (tests/fixtures/hf).
inline std::string hfFixture(const std::string& name) {
  return std::string(test_paths::fixturesDir()) + "/hf/" + name;
}

/// `task`'s "finetune" preset on the model folder `pretrained`, in a fresh folder
/// "<prefix>_<name>", probing by step count only so that runs are repeatable, on one thread.
inline TrainingConfig fineTuneRun(const std::string& task, const std::string& pretrained,
                                  const std::string& prefix, const std::string& name) {
  TrainingConfig c = *makePreset(task, "finetune");
  c.pretrained = pretrained;
  c.out_dir = freshTempPath(prefix + "_" + name);
  c.probe_every_steps = 10;
  c.probe_every_seconds = 1e9;
  c.probe_time_share = 1.0;
  c.threads = 1;
  return c;
}

/// Trains `config` to its end; the metrics and failures of the whole run, its last attention and
/// positional-encoding snapshots. A run that does not start is a test failure.
inline EventBatch runCollectingEvents(const TrainingConfig& config) {
  Trainer trainer(config);
  EventBatch all;
  const Status started = trainer.start();
  if (!started.ok()) {
    ADD_FAILURE() << started.error();
    return all;
  }
  drainUntilFinished(trainer, [&all](EventBatch b) {
    all.metrics.insert(all.metrics.end(), b.metrics.begin(), b.metrics.end());
    all.failures.insert(all.failures.end(), b.failures.begin(), b.failures.end());
    if (b.attention) all.attention = b.attention;
    if (b.positional_encoding) all.positional_encoding = b.positional_encoding;
  });
  return all;
}

/// The mean training loss of steps [from, from + count) of `m`.
inline double meanLoss(const std::vector<StepMetrics>& m, std::size_t from, std::size_t count) {
  double sum = 0;
  for (std::size_t i = from; i < from + count; ++i) sum += m[i].loss;
  return sum / static_cast<double>(count);
}

/// Trains `config` until it is interrupted at step `interrupt_at`, then resumes it to its end:
/// both parts must run without failures and the resumed part start at the step after.
/// Call with ASSERT_NO_FATAL_FAILURE.
inline void runInterruptedThenResumed(TrainingConfig config, int64_t interrupt_at) {
  config.interrupt_at_step = interrupt_at;
  ASSERT_TRUE(runCollectingEvents(config).failures.empty());
  config.interrupt_at_step = 0;
  config.resume = true;
  const EventBatch rest = runCollectingEvents(config);
  ASSERT_TRUE(rest.failures.empty()) << rest.failures[0].message;
  ASSERT_FALSE(rest.metrics.empty());
  EXPECT_EQ(rest.metrics.front().step, interrupt_at + 1);
}

/// The one attention group of an encoder with `layers` × `heads` maps, named as the GUI finds it.
inline void expectEncoderAttention(const AttentionSnapshot& snapshot, int layers, int heads) {
  ASSERT_EQ(snapshot.groups.size(), 1u);
  const AttentionGroup& g = snapshot.groups[0];
  EXPECT_EQ(g.name, "encoder");
  EXPECT_EQ(g.layers, layers);
  EXPECT_EQ(g.heads, heads);
  ASSERT_EQ(g.maps.size(), static_cast<std::size_t>(layers) * heads);
}

}  // namespace ascope::testing
