#pragma once
// Reading metrics.csv back (the GUI opening a run, a resume trimming it). Plain C++ (no LibTorch),
// so that the parser can be fuzzed (tests/fuzz/metrics_csv_fuzzer.cpp); the writer is in
// engine/runfolder/metrics/metrics_csv_writer.h.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {

struct MetricsRow {
  int64_t step = 0;
  int epoch = 0;
  /// "train", "val" or "test" (the whole held-out split at the end of a run; older files have
  /// none).
  std::string split;
  double loss = 0, accuracy = 0, lr = 0, samples_per_s = 0;
  std::optional<double> bleu, cer, wer, exact_match;
  /// Test rows: samples evaluated and the step of the weights evaluated (columns 12 and 13, which
  /// files written before the final test lack).
  std::optional<int64_t> samples, weights_step;
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

/// One data row; nullopt when it is not one the writer could have written. Numbers may be "nan"
/// or "inf" (a diverged run writes them); step and epoch are non-negative integers.
std::optional<MetricsRow> parseMetricsRow(std::string_view line);

/// The text of a metrics.csv. A malformed row (a torn last line, a line edited by hand) is
/// skipped and counted in one warning naming the first lines; the rest is kept. Errors: no header
/// on line 1. Errors and warnings start with `name`.
Expected<MetricsCsv> parseMetricsCsv(std::string_view text, const std::string& name);

/// Reads a metrics.csv back (the GUI opening a run): parseMetricsCsv of the file. Errors: not a
/// regular file, over kMaxMetricsCsvBytes, no header on line 1.
Expected<MetricsCsv> readMetricsCsv(const std::string& path);

}  // namespace ascope
