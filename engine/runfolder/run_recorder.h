#pragma once
// The run folder's subscriber to a training session's events: metrics.csv, head_stats.csv,
// learning_rates.csv and the attention/ timeline are written here, from the same events the event
// queue passes to the front ends, so the session emits each event once. A write that fails (a
// full disk) is said through `warn` once it starts failing, and training goes on.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "engine/runfolder/head_stats/head_stats_csv_writer.h"
#include "engine/runfolder/learning_rates/learning_rate_changes_csv.h"
#include "engine/runfolder/metrics/metrics_csv_writer.h"
#include "engine/runfolder/run_folder.h"
#include "engine/runfolder/snapshot_writer.h"
#include "engine/vocabulary/event_sink.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

struct RunRecording {
  /// Continue the files of a resumed run: rows after `resume_step` (written after the checkpoint
  /// the run resumes from) are dropped first.
  bool resume = false;
  int64_t resume_step = 0;
  bool head_statistics = true;  ///< write head_stats.csv
  /// The keys of the task's tracked figures: metrics.csv's figure columns.
  std::vector<std::string> figure_keys;
  /// The timeline: a probe set every `snapshot_spacing` steps (SnapshotStore), the last step
  /// always, within `snapshot_budget_bytes`.
  int64_t snapshot_spacing = 1;
  std::uint64_t snapshot_budget_bytes = 0;
  int64_t total_steps = 0;
};

class RunRecorder : public EventSink {
 public:
  using Warn = std::function<void(const std::string& message)>;

  /// Opens the folder's files for `recording`; an error names the file that could not be opened.
  /// What resuming kept or dropped of a file beyond the checkpoint's rows goes to `warn`.
  static Expected<RunRecorder> open(const RunFolder& folder, const RunRecording& recording,
                                    Warn warn);

  void onStep(const StepMetrics& metrics) override;
  void onEpoch(const EpochSummary& summary) override;
  void onTest(const TestEvaluation& test) override;
  /// Stored when the timeline is due a set at this step; the encoding is in its first sample
  /// (a stored step shows every dock as it was then).
  void onProbe(std::shared_ptr<const ProbeSet> probes,
               const PositionalEncodingSnapshot& encoding) override;
  void onHeadStatistics(const HeadStatisticsUpdate& update) override;
  void onLearningRateChange(const LearningRateChange& change) override;

  /// The timeline's sets, written on a thread of their own (flush before counting them).
  SnapshotWriter& snapshots() { return *snapshots_; }
  /// Whether a probe at `step` would be stored: the session probes these steps.
  bool snapshotDue(int64_t step) const { return snapshots_->due(step, step == total_steps_); }

 private:
  RunRecorder(MetricsCsvWriter metrics, std::optional<HeadStatsCsvWriter> head_stats,
              LearningRateChangesWriter learning_rates, SnapshotStore snapshots,
              int64_t total_steps, Warn warn);
  void check(const Status& written) const;

  MetricsCsvWriter metrics_;
  std::optional<HeadStatsCsvWriter> head_stats_;
  LearningRateChangesWriter learning_rates_;
  std::unique_ptr<SnapshotWriter> snapshots_;  // owns a thread: the recorder stays movable
  int64_t total_steps_ = 0;
  Warn warn_;
};

}  // namespace ascope
