#pragma once
// metrics.csv: header `step,epoch,split,loss,accuracy,lr,samples_per_s,samples,weights_step`
// followed by one column per figure the task tracks (MetricsColumns), one `train` row per step,
// one `val` row per evaluation and, at the end of a run that reached its end, one `test` row (the
// whole held-out split; samples and weights_step are its own columns), appended and flushed as
// training goes.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/appended_rows_file.h"
#include "engine/runfolder/metrics/metrics_csv_reader.h"  // MetricsRow, MetricsColumns
#include "engine/vocabulary/events.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

class MetricsCsvWriter {
 public:
  /// Opens `path` for appending, with a column for each of `figure_keys` (the task's tracked
  /// figures). On resume, rows after `keep_up_to_step` (written after the checkpoint the run
  /// resumes from) are dropped first, so the file reads as one run; rows that cannot be read are
  /// kept, and said in `warnings` (AppendedRowsFile::open). A resumed file keeps its own columns
  /// in their order and gains the ones it lacks at the end, so its rows read as they did.
  static Expected<MetricsCsvWriter> open(const std::string& path, bool resume,
                                         int64_t keep_up_to_step,
                                         const std::vector<std::string>& figure_keys,
                                         std::vector<std::string>* warnings = nullptr);

  /// An error when the row could not be written (a full disk): said once when writing starts to
  /// fail, not for every row after it; ok again once rows get through.
  [[nodiscard]] Status append(const StepMetrics& m);
  [[nodiscard]] Status append(const EpochSummary& e, double lr);
  [[nodiscard]] Status append(const TestEvaluation& t, double lr);

  const MetricsColumns& columns() const { return columns_; }

 private:
  MetricsCsvWriter(AppendedRowsFile file, MetricsColumns columns)
      : file_(std::move(file)), columns_(std::move(columns)) {}
  /// The row of `row`'s fields under columns_, each column's cell or empty.
  Status writeRow(const MetricsRow& row);
  AppendedRowsFile file_;
  MetricsColumns columns_;
};

}  // namespace ascope
