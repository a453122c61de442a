#include "engine/train/event_queue.h"

#include <utility>

namespace ascope {

EventQueue::EventQueue(std::size_t metric_capacity, std::size_t log_capacity,
                       std::size_t head_statistics_capacity)
    : metric_capacity_(metric_capacity),
      log_capacity_(log_capacity),
      head_statistics_capacity_(head_statistics_capacity) {}

void EventQueue::pushMetrics(const StepMetrics& metrics) {
  std::lock_guard lock(mutex_);
  if (metrics_.size() >= metric_capacity_) {
    // Coalesce: of the two oldest points keep the newer, so the curve keeps its shape and the
    // latest values always arrive.
    metrics_.pop_front();
    ++pending_.dropped_metrics;
  }
  metrics_.push_back(metrics);
}

void EventQueue::pushEpoch(const EpochSummary& summary) {
  std::lock_guard lock(mutex_);
  pending_.epochs.push_back(summary);
}

void EventQueue::pushTestEvaluation(const TestEvaluation& test) {
  std::lock_guard lock(mutex_);
  pending_.test = test;
}

void EventQueue::pushLog(LogLine line) {
  std::lock_guard lock(mutex_);
  if (logs_.size() >= log_capacity_) logs_.pop_front();
  logs_.push_back(std::move(line));
}

void EventQueue::pushState(StateChange change) {
  std::lock_guard lock(mutex_);
  pending_.states.push_back(std::move(change));
}

void EventQueue::pushFailure(Failure failure) {
  std::lock_guard lock(mutex_);
  pending_.failures.push_back(std::move(failure));
}

void EventQueue::pushLearningRateChange(const LearningRateChange& change) {
  std::lock_guard lock(mutex_);
  pending_.learning_rate_changes.push_back(change);  // a few per run: a person sends them
}

void EventQueue::publishAttention(std::shared_ptr<const ProbeSet> probes) {
  std::lock_guard lock(mutex_);
  pending_.attention = std::move(probes);
}

void EventQueue::pushHeadStatistics(HeadStatisticsUpdate update) {
  std::lock_guard lock(mutex_);
  std::vector<HeadStatisticsUpdate>& updates = pending_.head_statistics;
  if (updates.size() >= head_statistics_capacity_) updates.erase(updates.begin());
  updates.push_back(std::move(update));
}

void EventQueue::publishPositionalEncoding(PositionalEncodingSnapshot snapshot) {
  std::lock_guard lock(mutex_);
  pending_.positional_encoding = std::move(snapshot);
}

void EventQueue::publishSample(SamplePrediction sample) {
  std::lock_guard lock(mutex_);
  pending_.sample = std::move(sample);
}

void EventQueue::announceRunFolder(std::string path) {
  std::lock_guard lock(mutex_);
  pending_.run_folder = std::move(path);
}

EventBatch EventQueue::drain() {
  EventBatch out;
  std::deque<StepMetrics> metrics;
  std::deque<LogLine> logs;
  {
    std::lock_guard lock(mutex_);
    std::swap(out, pending_);
    std::swap(metrics, metrics_);
    std::swap(logs, logs_);
  }
  out.metrics.assign(metrics.begin(), metrics.end());
  out.logs.assign(std::make_move_iterator(logs.begin()), std::make_move_iterator(logs.end()));
  return out;
}

void EventQueue::onProbe(std::shared_ptr<const ProbeSet> probes,
                         const PositionalEncodingSnapshot& encoding) {
  if (!probes->samples.empty() && probes->samples.front().sample) {
    publishSample(*probes->samples.front().sample);
  }
  publishAttention(std::move(probes));
  publishPositionalEncoding(encoding);
}

}  // namespace ascope
