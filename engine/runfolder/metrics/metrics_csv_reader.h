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
#include "engine/vocabulary/figures.h"

namespace ascope {

struct MetricsRow {
  int64_t step = 0;
  int epoch = 0;
  /// "train", "val" or "test" (the whole held-out split at the end of a run; older files have
  /// none).
  std::string split;
  double loss = 0, accuracy = 0, lr = 0, samples_per_s = 0;
  /// The task's figures the row has a value for (val and test rows), in the file's column order.
  Figures figures;
  /// Test rows: samples evaluated and the step of the weights evaluated (files written before
  /// the final test lack both).
  std::optional<int64_t> samples, weights_step;
};

/// The columns of a metrics.csv as its header names them: always
/// `step,epoch,split,loss,accuracy,lr,samples_per_s` first; then, in any order, `samples` and
/// `weights_step` (test rows' counts) and one column per figure of the task, named by its key
/// (MetricInfo::key). Files written before figures were declared by tasks have
/// `bleu,cer,wer,exact_match,samples,weights_step` there and read the same way.
class MetricsColumns {
 public:
  /// What a new file gets: the seven, the two counts, then `figure_keys` (each isMetricKey).
  static MetricsColumns forFigures(const std::vector<std::string>& figure_keys);
  /// The columns of `header` (line 1 of a file). Errors: not the metrics header, a column that
  /// is neither ours nor a figure key, a column twice, more than kMaxMetricsColumns.
  static Expected<MetricsColumns> parse(std::string_view header);

  /// These columns, then those of `wanted` they lack: rows written under these still read (a
  /// row may end early), and rows of every wanted column can be written.
  MetricsColumns extendedWith(const MetricsColumns& wanted) const;

  std::string header() const;
  const std::vector<std::string>& names() const { return names_; }
  /// Index of column `name`; -1 when the file has none.
  int indexOf(const std::string& name) const;

 private:
  std::vector<std::string> names_;
};

/// Seven fixed columns, two counts and the figures: a task declaring more is refused.
inline constexpr std::size_t kMaxMetricsColumns = 48;

/// metrics.csv is read whole by the GUI; a run of a million steps writes about 70 MiB.
inline constexpr std::uint64_t kMaxMetricsCsvBytes = std::uint64_t{256} << 20;
/// Rows past this many are not read (a warning says so).
inline constexpr std::size_t kMaxMetricsRows = std::size_t{4} << 20;
/// A row of kMaxMetricsColumns numbers is under 700 bytes; a longer line is not one of ours.
inline constexpr std::size_t kMaxMetricsLineBytes = 1024;
/// kMaxMetricsColumns names of at most 32 characters.
inline constexpr std::size_t kMaxMetricsHeaderBytes = 2048;

struct MetricsCsv {
  MetricsColumns columns;
  std::vector<MetricsRow> rows;
  std::vector<std::string> warnings;  ///< rows skipped, rows not read
};

/// One data row under `columns`; nullopt when it is not one the writer could have written.
/// Numbers may be "nan" or "inf" (a diverged run writes them); step and epoch are non-negative
/// integers. A row may end early (its last fields empty), never run past the header.
std::optional<MetricsRow> parseMetricsRow(std::string_view line, const MetricsColumns& columns);

/// The text of a metrics.csv. A malformed row (a torn last line, a line edited by hand) is
/// skipped and counted in one warning naming the first lines; the rest is kept. Errors: no header
/// on line 1 (MetricsColumns::parse). Errors and warnings start with `name`.
Expected<MetricsCsv> parseMetricsCsv(std::string_view text, const std::string& name);

/// The columns of the metrics.csv at `path`, from its first line only (a followed run's reader
/// starting at the file's end). Errors: not a regular file, no header on line 1.
Expected<MetricsColumns> readMetricsColumns(const std::string& path);

/// Reads a metrics.csv back (the GUI opening a run): parseMetricsCsv of the file. Errors: not a
/// regular file, over kMaxMetricsCsvBytes, no header on line 1.
Expected<MetricsCsv> readMetricsCsv(const std::string& path);

}  // namespace ascope
