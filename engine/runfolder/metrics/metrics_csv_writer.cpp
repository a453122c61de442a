#include "engine/runfolder/metrics/metrics_csv_writer.h"

#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>

#include "engine/core/number_text.h"
#include "engine/core/regular_file.h"
#include "engine/core/text_lines.h"

namespace ascope {
namespace {

/// Six significant digits, as "%.6g" in the C locale, whatever locale the program runs under.
std::string csvNumber(double v) {
  return formatNumber(v, 6);
}

/// The columns of the file a resumed run appends to: its own header's where it has a readable
/// one, extended by those of a new file it lacks (a run made before the test row's counts or a
/// figure); else those of a new file.
MetricsColumns resumedColumns(const std::string& path, bool resume,
                              const std::vector<std::string>& figure_keys) {
  const MetricsColumns fresh = MetricsColumns::forFigures(figure_keys);
  std::error_code ec;
  if (!resume || !std::filesystem::exists(path, ec)) return fresh;
  // The header is read here only to learn the columns; AppendedRowsFile::open checks the file.
  Expected<std::string> text = readRegularFile(path, kMaxMetricsCsvBytes);
  if (!text.ok()) return fresh;
  const std::vector<std::string_view> lines = splitLines(*text);
  if (lines.empty() || lines[0].size() > kMaxMetricsHeaderBytes) return fresh;
  Expected<MetricsColumns> own = MetricsColumns::parse(lines[0]);
  return own.ok() ? own->extendedWith(fresh) : fresh;
}

}  // namespace

Expected<MetricsCsvWriter> MetricsCsvWriter::open(const std::string& path, bool resume,
                                                  int64_t keep_up_to_step,
                                                  const std::vector<std::string>& figure_keys,
                                                  std::vector<std::string>* warnings) {
  MetricsColumns columns = resumedColumns(path, resume, figure_keys);
  Expected<AppendedRowsFile> file = AppendedRowsFile::open(
      path, columns.header(), resume, kMaxMetricsCsvBytes,
      [keep_up_to_step, &columns](std::string_view line) {
        const std::optional<MetricsRow> row = parseMetricsRow(line, columns);
        if (!row) return AppendedRowsFile::Row::kUnreadable;
        return row->step <= keep_up_to_step ? AppendedRowsFile::Row::kKeep
                                            : AppendedRowsFile::Row::kAfter;
      },
      "the metrics", warnings);
  if (!file.ok()) return Error{file.error()};
  return MetricsCsvWriter(std::move(*file), std::move(columns));
}

Status MetricsCsvWriter::append(const StepMetrics& m) {
  MetricsRow row;
  row.step = m.step;
  row.epoch = m.epoch;
  row.split = "train";
  row.loss = m.loss;
  row.accuracy = m.accuracy;
  row.lr = m.lr;
  row.samples_per_s = m.samples_per_s;
  return writeRow(row);
}

Status MetricsCsvWriter::append(const EpochSummary& e, double lr) {
  MetricsRow row;
  row.step = e.step;
  row.epoch = e.epoch;
  row.split = "val";
  row.loss = e.val_loss;
  row.accuracy = e.val_accuracy;
  row.lr = lr;
  row.figures = e.figures;
  return writeRow(row);
}

Status MetricsCsvWriter::append(const TestEvaluation& t, double lr) {
  MetricsRow row;
  row.step = t.step;
  row.epoch = t.epoch;
  row.split = "test";
  row.loss = t.loss;
  row.accuracy = t.accuracy;
  row.lr = lr;
  row.figures = t.figures;
  row.samples = t.samples;
  row.weights_step = t.weights_step;
  return writeRow(row);
}

Status MetricsCsvWriter::writeRow(const MetricsRow& row) {
  std::string line = std::to_string(row.step) + "," + std::to_string(row.epoch) + "," + row.split +
                     "," + csvNumber(row.loss) + "," + csvNumber(row.accuracy) + "," +
                     csvNumber(row.lr) + ",";
  // A train row's rate; evaluation rows leave it empty, as they always have.
  if (row.split == "train") line += csvNumber(row.samples_per_s);
  const std::vector<std::string>& names = columns_.names();
  for (std::size_t i = 7; i < names.size(); ++i) {
    line.push_back(',');
    if (names[i] == "samples") {
      if (row.samples) line += std::to_string(*row.samples);
    } else if (names[i] == "weights_step") {
      if (row.weights_step) line += std::to_string(*row.weights_step);
    } else if (const std::optional<double> value = row.figures.get(names[i])) {
      line += csvNumber(*value);
    }
  }
  line.push_back('\n');
  // Cannot happen with six-digit fields; refused rather than written longer than a reader takes.
  if (line.size() > kMaxMetricsLineBytes) return file_.fail(EOVERFLOW);
  return file_.append(line);
}

}  // namespace ascope
