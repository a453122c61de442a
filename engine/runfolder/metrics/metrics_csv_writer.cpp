#include "engine/runfolder/metrics/metrics_csv_writer.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string_view>

namespace ascope {
namespace {

constexpr std::size_t kMaxRowBytes = 384;

// samples and weights_step came last, so that readers of the first eleven columns read on.
constexpr const char* kHeader =
    "step,epoch,split,loss,accuracy,lr,samples_per_s,bleu,cer,wer,exact_match,samples,"
    "weights_step";

std::string optionalField(const std::optional<double>& v) {
  if (!v) return "";
  std::ostringstream s;
  s.precision(6);
  s << *v;
  return s.str();
}

}  // namespace

Expected<MetricsCsvWriter> MetricsCsvWriter::open(const std::string& path, bool resume,
                                                  int64_t keep_up_to_step) {
  // Torn last lines from the interruption and other unparsable rows are dropped on resume.
  Expected<AppendedRowsFile> file = AppendedRowsFile::open(
      path, kHeader, resume, kMaxMetricsCsvBytes,
      [keep_up_to_step](std::string_view line) {
        const std::optional<MetricsRow> row = parseMetricsRow(line);
        return row && row->step <= keep_up_to_step;
      },
      "the metrics");
  if (!file.ok()) return Error{file.error()};
  return MetricsCsvWriter(std::move(*file));
}

Status MetricsCsvWriter::append(const StepMetrics& m) {
  char row[kMaxRowBytes];
  const int length = std::snprintf(row, sizeof row, "%lld,%d,train,%.6g,%.6g,%.6g,%.6g,,,,,,\n",
                                   static_cast<long long>(m.step), m.epoch, m.loss, m.accuracy,
                                   m.lr, m.samples_per_s);
  return writeRow(row, length);
}

Status MetricsCsvWriter::append(const EpochSummary& e, double lr) {
  char row[kMaxRowBytes];
  const int length =
      std::snprintf(row, sizeof row, "%lld,%d,val,%.6g,%.6g,%.6g,,%s,%s,%s,%s,,\n",
                    static_cast<long long>(e.step), e.epoch, e.val_loss, e.val_accuracy, lr,
                    optionalField(e.bleu).c_str(), optionalField(e.cer).c_str(),
                    optionalField(e.wer).c_str(), optionalField(e.exact_match).c_str());
  return writeRow(row, length);
}

Status MetricsCsvWriter::append(const TestEvaluation& t, double lr) {
  char row[kMaxRowBytes];
  const int length =
      std::snprintf(row, sizeof row, "%lld,%d,test,%.6g,%.6g,%.6g,,%s,%s,%s,%s,%lld,%lld\n",
                    static_cast<long long>(t.step), t.epoch, t.loss, t.accuracy, lr,
                    optionalField(t.bleu).c_str(), optionalField(t.cer).c_str(),
                    optionalField(t.wer).c_str(), optionalField(t.exact_match).c_str(),
                    static_cast<long long>(t.samples), static_cast<long long>(t.weights_step));
  return writeRow(row, length);
}

Status MetricsCsvWriter::writeRow(const char* row, int length) {
  // snprintf cut the row: cannot happen with %.6g fields; refused rather than written torn.
  if (length < 0 || static_cast<std::size_t>(length) >= kMaxRowBytes) return file_.fail(EOVERFLOW);
  return file_.append(std::string_view(row, static_cast<std::size_t>(length)));
}

}  // namespace ascope
