#pragma once
// metrics.csv: header
// `step,epoch,split,loss,accuracy,lr,samples_per_s,bleu,cer,wer,exact_match,samples,weights_step`,
// one `train` row per step, one `val` row per evaluation and, at the end of a run that reached its
// end, one `test` row (the whole held-out split; samples and weights_step are its own columns),
// appended and flushed as training goes.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/appended_rows_file.h"
#include "engine/runfolder/metrics/metrics_csv_reader.h"  // MetricsRow, readMetricsCsv
#include "engine/vocabulary/events.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

class MetricsCsvWriter {
 public:
  /// Opens `path` for appending. On resume, rows after `keep_up_to_step` (written after the
  /// checkpoint the run resumes from) are dropped first, so the file reads as one run; rows that
  /// cannot be read are kept, and said in `warnings` (AppendedRowsFile::open).
  static Expected<MetricsCsvWriter> open(const std::string& path, bool resume,
                                         int64_t keep_up_to_step,
                                         std::vector<std::string>* warnings = nullptr);

  /// An error when the row could not be written (a full disk): said once when writing starts to
  /// fail, not for every row after it; ok again once rows get through.
  [[nodiscard]] Status append(const StepMetrics& m);
  [[nodiscard]] Status append(const EpochSummary& e, double lr);
  [[nodiscard]] Status append(const TestEvaluation& t, double lr);

 private:
  explicit MetricsCsvWriter(AppendedRowsFile file) : file_(std::move(file)) {}
  Status writeRow(const std::string& row);
  AppendedRowsFile file_;
};

}  // namespace ascope
