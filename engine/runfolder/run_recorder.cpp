#include "engine/runfolder/run_recorder.h"

#include <utility>

namespace ascope {

Expected<RunRecorder> RunRecorder::open(const RunFolder& folder, const RunRecording& recording,
                                        Warn warn) {
  std::vector<std::string> warnings;  // rows kept or dropped on resume that a person should know
  Expected<MetricsCsvWriter> metrics =
      MetricsCsvWriter::open(folder.metricsPath(), recording.resume, recording.resume_step,
                             recording.figure_keys, &warnings);
  if (!metrics.ok()) return Error{metrics.error()};
  std::optional<HeadStatsCsvWriter> head_stats;
  if (recording.head_statistics) {
    Expected<HeadStatsCsvWriter> heads = HeadStatsCsvWriter::open(
        folder.headStatsPath(), recording.resume, recording.resume_step, &warnings);
    if (!heads.ok()) return Error{heads.error()};
    head_stats.emplace(std::move(*heads));
  }
  Expected<LearningRateChangesWriter> rates = LearningRateChangesWriter::open(
      learningRateChangesPath(folder.path()), recording.resume, recording.resume_step, &warnings);
  if (!rates.ok()) return Error{rates.error()};
  if (warn) {
    for (const std::string& w : warnings) warn(w);
  }
  SnapshotStore snapshots(folder, recording.snapshot_spacing, recording.snapshot_budget_bytes);
  return RunRecorder(std::move(*metrics), std::move(head_stats), std::move(*rates),
                     std::move(snapshots), recording.total_steps, std::move(warn));
}

RunRecorder::RunRecorder(MetricsCsvWriter metrics, std::optional<HeadStatsCsvWriter> head_stats,
                         LearningRateChangesWriter learning_rates, SnapshotStore snapshots,
                         int64_t total_steps, Warn warn)
    : metrics_(std::move(metrics)),
      head_stats_(std::move(head_stats)),
      learning_rates_(std::move(learning_rates)),
      snapshots_(std::make_unique<SnapshotWriter>(std::move(snapshots), warn)),
      total_steps_(total_steps),
      warn_(std::move(warn)) {}

void RunRecorder::check(const Status& written) const {
  if (!written.ok() && warn_) warn_(written.error());
}

void RunRecorder::onStep(const StepMetrics& metrics) {
  check(metrics_.append(metrics));
}

void RunRecorder::onEpoch(const EpochSummary& summary) {
  check(metrics_.append(summary, summary.lr));
}

void RunRecorder::onTest(const TestEvaluation& test) {
  if (test.split == "none") return;  // no test split, no figure, no row
  check(metrics_.append(test, test.lr));
}

void RunRecorder::onProbe(std::shared_ptr<const ProbeSet> probes,
                          const PositionalEncodingSnapshot& /*encoding*/) {
  if (probes->samples.empty() || !snapshots_->due(probes->step, probes->step == total_steps_)) {
    return;
  }
  snapshots_->write(std::move(probes));
}

void RunRecorder::onHeadStatistics(const HeadStatisticsUpdate& update) {
  if (head_stats_) check(head_stats_->append(update.step, update.values));
}

void RunRecorder::onLearningRateChange(const LearningRateChange& change) {
  check(learning_rates_.append(change));
}

}  // namespace ascope
