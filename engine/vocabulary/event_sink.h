#pragma once
// One subscriber of a run's events. The training session emits each event once, to every sink it
// has: the event queue that front ends drain (engine/train/event_queue.h) and the recorder that
// writes the run folder (engine/runfolder/run_recorder.h). Called on the trainer thread, in the
// order the events happen; a sink must not throw.
#include <memory>

#include "engine/vocabulary/attention_snapshot.h"
#include "engine/vocabulary/head_statistics_update.h"
#include "engine/vocabulary/training_metrics.h"

namespace ascope {

class EventSink {
 public:
  virtual ~EventSink() = default;

  virtual void onStep(const StepMetrics& metrics) = 0;
  virtual void onEpoch(const EpochSummary& summary) = 0;
  /// Once per run that reached its end.
  virtual void onTest(const TestEvaluation& test) = 0;
  /// A probe: the probe set (each sample with its prediction, the first with the positional
  /// encoding) and the positional encoding of the same step. The set is shared, never copied: a
  /// subscriber keeps the pointer as long as it needs the set (the GUI until it has drawn it,
  /// the run folder's writer until it has written it).
  virtual void onProbe(std::shared_ptr<const ProbeSet> probes,
                       const PositionalEncodingSnapshot& encoding) = 0;
  virtual void onHeadStatistics(const HeadStatisticsUpdate& update) = 0;
  virtual void onLearningRateChange(const LearningRateChange& change) = 0;
};

}  // namespace ascope
