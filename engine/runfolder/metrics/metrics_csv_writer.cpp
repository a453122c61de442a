#include "engine/runfolder/metrics/metrics_csv_writer.h"

#include <cerrno>
#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/core/number_text.h"

namespace ascope {
namespace {

constexpr std::size_t kMaxRowBytes = 384;

// samples and weights_step came last, so that readers of the first eleven columns read on.
constexpr const char* kHeader =
    "step,epoch,split,loss,accuracy,lr,samples_per_s,bleu,cer,wer,exact_match,samples,"
    "weights_step";

/// Six significant digits, as "%.6g" in the C locale, whatever locale the program runs under.
std::string number(double v) {
  return formatNumber(v, 6);
}

std::string optionalField(const std::optional<double>& v) {
  return v ? number(*v) : std::string();
}

}  // namespace

Expected<MetricsCsvWriter> MetricsCsvWriter::open(const std::string& path, bool resume,
                                                  int64_t keep_up_to_step,
                                                  std::vector<std::string>* warnings) {
  Expected<AppendedRowsFile> file = AppendedRowsFile::open(
      path, kHeader, resume, kMaxMetricsCsvBytes,
      [keep_up_to_step](std::string_view line) {
        const std::optional<MetricsRow> row = parseMetricsRow(line);
        if (!row) return AppendedRowsFile::Row::kUnreadable;
        return row->step <= keep_up_to_step ? AppendedRowsFile::Row::kKeep
                                            : AppendedRowsFile::Row::kAfter;
      },
      "the metrics", warnings);
  if (!file.ok()) return Error{file.error()};
  return MetricsCsvWriter(std::move(*file));
}

Status MetricsCsvWriter::append(const StepMetrics& m) {
  return writeRow(std::to_string(m.step) + "," + std::to_string(m.epoch) + ",train," +
                  number(m.loss) + "," + number(m.accuracy) + "," + number(m.lr) + "," +
                  number(m.samples_per_s) + ",,,,,,\n");
}

Status MetricsCsvWriter::append(const EpochSummary& e, double lr) {
  return writeRow(std::to_string(e.step) + "," + std::to_string(e.epoch) + ",val," +
                  number(e.val_loss) + "," + number(e.val_accuracy) + "," + number(lr) + ",," +
                  optionalField(e.bleu) + "," + optionalField(e.cer) + "," + optionalField(e.wer) +
                  "," + optionalField(e.exact_match) + ",,\n");
}

Status MetricsCsvWriter::append(const TestEvaluation& t, double lr) {
  return writeRow(std::to_string(t.step) + "," + std::to_string(t.epoch) + ",test," +
                  number(t.loss) + "," + number(t.accuracy) + "," + number(lr) + ",," +
                  optionalField(t.bleu) + "," + optionalField(t.cer) + "," + optionalField(t.wer) +
                  "," + optionalField(t.exact_match) + "," + std::to_string(t.samples) + "," +
                  std::to_string(t.weights_step) + "\n");
}

Status MetricsCsvWriter::writeRow(const std::string& row) {
  // Cannot happen with six-digit fields; refused rather than written longer than a reader takes.
  if (row.size() >= kMaxRowBytes) return file_.fail(EOVERFLOW);
  return file_.append(row);
}

}  // namespace ascope
