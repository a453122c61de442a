#pragma once
// The training session's one place to emit an event: every event goes once to each subscriber, in
// the order they were added (the run recorder first, so that a file exists before a front end
// hears of it, then the event queue).
#include <vector>

#include "engine/vocabulary/event_sink.h"

namespace ascope {

class EventFanOut : public EventSink {
 public:
  /// `sink` must outlive this fan-out.
  void add(EventSink& sink) { sinks_.push_back(&sink); }
  void clear() { sinks_.clear(); }

  void onStep(const StepMetrics& m) override {
    for (EventSink* s : sinks_) s->onStep(m);
  }
  void onEpoch(const EpochSummary& e) override {
    for (EventSink* s : sinks_) s->onEpoch(e);
  }
  void onTest(const TestEvaluation& t) override {
    for (EventSink* s : sinks_) s->onTest(t);
  }
  void onProbe(std::shared_ptr<const ProbeSet> probes,
               const PositionalEncodingSnapshot& encoding) override {
    for (EventSink* s : sinks_) s->onProbe(probes, encoding);
  }
  void onHeadStatistics(const HeadStatisticsUpdate& update) override {
    for (EventSink* s : sinks_) s->onHeadStatistics(update);
  }
  void onLearningRateChange(const LearningRateChange& change) override {
    for (EventSink* s : sinks_) s->onLearningRateChange(change);
  }

 private:
  std::vector<EventSink*> sinks_;
};

}  // namespace ascope
