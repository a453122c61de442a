#pragma once
// Producer: the training thread. Consumer: whoever drains (GUI timer, CLI loop, tests).
// Never blocks the producer for longer than a vector push under a mutex: light events go to bounded
// append queues (metrics are coalesced when full), heavy ones to latest-wins slots. A queue nobody
// drains costs bounded memory and no time.
#include <cstddef>
#include <deque>
#include <mutex>

#include "engine/vocabulary/event_sink.h"
#include "engine/vocabulary/events.h"

namespace ascope {

/// Also an EventSink of the training session: each sink call is the matching push or publish.
class EventQueue : public EventSink {
 public:
  explicit EventQueue(std::size_t metric_capacity = 8192, std::size_t log_capacity = 2000,
                      std::size_t head_statistics_capacity = 512);

  void pushMetrics(const StepMetrics& metrics);
  void pushEpoch(const EpochSummary& summary);
  /// Once per run; a second one before a drain replaces the first.
  void pushTestEvaluation(const TestEvaluation& test);
  void pushLog(LogLine line);
  void pushState(StateChange change);
  void pushFailure(Failure failure);
  void pushLearningRateChange(const LearningRateChange& change);
  void publishAttention(std::shared_ptr<const ProbeSet> probes);
  /// Kept in order (the sparklines need every probe) but bounded: the oldest go first when nobody
  /// drains; head_stats.csv keeps them all.
  void pushHeadStatistics(HeadStatisticsUpdate update);
  void publishPositionalEncoding(PositionalEncodingSnapshot snapshot);
  void publishSample(SamplePrediction sample);
  void announceRunFolder(std::string path);

  // EventSink
  void onStep(const StepMetrics& metrics) override { pushMetrics(metrics); }
  void onEpoch(const EpochSummary& summary) override { pushEpoch(summary); }
  void onTest(const TestEvaluation& test) override { pushTestEvaluation(test); }
  /// The first sample's prediction, the probe set (shared, not copied) and the encoding, in three
  /// slots.
  void onProbe(std::shared_ptr<const ProbeSet> probes,
               const PositionalEncodingSnapshot& encoding) override;
  void onHeadStatistics(const HeadStatisticsUpdate& update) override { pushHeadStatistics(update); }
  void onLearningRateChange(const LearningRateChange& change) override {
    pushLearningRateChange(change);
  }

  /// Moves everything out; the queue is empty afterwards.
  EventBatch drain();

 private:
  const std::size_t metric_capacity_;
  const std::size_t log_capacity_;
  const std::size_t head_statistics_capacity_;
  std::mutex mutex_;
  EventBatch pending_;               // guarded by mutex_
  std::deque<StepMetrics> metrics_;  // guarded by mutex_
  std::deque<LogLine> logs_;         // guarded by mutex_
};

}  // namespace ascope
