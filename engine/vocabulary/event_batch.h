#pragma once
// Everything a front end receives from the trainer at one drain (EventQueue::drain).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/vocabulary/attention_snapshot.h"
#include "engine/vocabulary/head_statistics_update.h"
#include "engine/vocabulary/log_line.h"
#include "engine/vocabulary/trainer_state.h"
#include "engine/vocabulary/training_metrics.h"

namespace ascope {

/// Everything that arrived since the last drain.
struct EventBatch {
  std::vector<StepMetrics> metrics;
  std::vector<EpochSummary> epochs;
  std::optional<TestEvaluation> test;                 ///< once, at the end of a run
  std::shared_ptr<const ProbeSet> attention;          ///< the newest probe set, if any
  std::vector<HeadStatisticsUpdate> head_statistics;  ///< every probe's, in order
  std::optional<PositionalEncodingSnapshot> positional_encoding;
  std::optional<SamplePrediction> sample;
  std::vector<LogLine> logs;
  std::vector<StateChange> states;
  std::vector<Failure> failures;
  std::vector<LearningRateChange> learning_rate_changes;
  std::optional<std::string> run_folder;  ///< once per run, when preparation has made it
  uint64_t dropped_metrics = 0;           ///< metrics coalesced away since the last drain

  bool empty() const {
    return metrics.empty() && epochs.empty() && !test && !attention && head_statistics.empty() &&
           !positional_encoding && !sample && logs.empty() && states.empty() && failures.empty() &&
           learning_rate_changes.empty() && !run_folder;
  }
};

}  // namespace ascope
