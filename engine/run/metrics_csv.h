#pragma once
// metrics.csv: header `step,epoch,split,loss,accuracy,lr,samples_per_s,bleu,cer,wer,exact_match`,
// one `train` row per step and one `val` row per evaluation, appended and flushed as training goes.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/core/expected.h"
#include "engine/train/events.h"

namespace ascope {

struct MetricsRow {
  int64_t step = 0;
  int epoch = 0;
  std::string split;  ///< "train" or "val"
  double loss = 0, accuracy = 0, lr = 0, samples_per_s = 0;
  std::optional<double> bleu, cer, wer, exact_match;
};

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

/// metrics.csv is read whole by the GUI; a run of a million steps writes about 70 MiB.
inline constexpr std::uint64_t kMaxMetricsCsvBytes = std::uint64_t{256} << 20;
/// Rows past this many are not read (a warning says so).
inline constexpr std::size_t kMaxMetricsRows = std::size_t{4} << 20;
/// A row is under 200 bytes; a longer line is not one of ours.
inline constexpr std::size_t kMaxMetricsLineBytes = 1024;

struct MetricsCsv {
  std::vector<MetricsRow> rows;
  std::vector<std::string> warnings;  ///< rows skipped, rows not read
};

/// Reads a metrics.csv back (the GUI opening a run). A malformed row (a torn last line, a line
/// edited by hand) is skipped and counted in one warning naming the first lines; the rest is
/// kept. Errors: not a regular file, over kMaxMetricsCsvBytes, no header on line 1.
Expected<MetricsCsv> readMetricsCsv(const std::string& path);

}  // namespace ascope
