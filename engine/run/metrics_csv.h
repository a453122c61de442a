#pragma once
// metrics.csv: header `step,epoch,split,loss,accuracy,lr,samples_per_s,bleu,cer,wer,exact_match`,
// one `train` row per step and one `val` row per evaluation, appended and flushed as training goes.
#include <cstdint>
#include <cstdio>
#include <string>

#include "engine/core/expected.h"
#include "engine/data/metrics_csv_reader.h"  // MetricsRow, readMetricsCsv
#include "engine/train/events.h"

namespace ascope {

class MetricsCsvWriter {
 public:
  /// Opens `path` for appending. On resume, rows after `keep_up_to_step` (written after the
  /// checkpoint the run resumes from) are dropped first, so the file reads as one run.
  static Expected<MetricsCsvWriter> open(const std::string& path, bool resume,
                                         int64_t keep_up_to_step);
  MetricsCsvWriter(MetricsCsvWriter&& other) noexcept;
  MetricsCsvWriter& operator=(MetricsCsvWriter&&) = delete;
  MetricsCsvWriter(const MetricsCsvWriter&) = delete;
  ~MetricsCsvWriter();

  void append(const StepMetrics& m);
  void append(const EpochSummary& e, double lr);

 private:
  explicit MetricsCsvWriter(std::FILE* file) : file_(file) {}
  std::FILE* file_ = nullptr;
};

}  // namespace ascope
