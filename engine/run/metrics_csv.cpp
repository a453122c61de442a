#include "engine/run/metrics_csv.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string_view>

#include "engine/core/atomic_file.h"
#include "engine/data/regular_file.h"
#include "engine/data/text_lines.h"

namespace ascope {
namespace {

constexpr const char* kHeader =
    "step,epoch,split,loss,accuracy,lr,samples_per_s,bleu,cer,wer,exact_match";

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
  std::string kept = std::string(kHeader) + "\n";
  std::error_code ec;
  if (resume && std::filesystem::exists(path, ec)) {
    // A FIFO or folder in its place is refused here rather than blocking or being replaced.
    Expected<std::string> text = readRegularFile(path, kMaxMetricsCsvBytes);
    if (!text.ok()) return Error{text.error()};
    const std::vector<std::string_view> lines = splitLines(*text);
    for (std::size_t i = 1; i < lines.size(); ++i) {  // line 1 is the header
      // Torn last lines from the interruption and other unparsable rows are dropped.
      const std::optional<MetricsRow> row = parseMetricsRow(lines[i]);
      if (row && row->step <= keep_up_to_step) kept.append(lines[i]).push_back('\n');
    }
  }
  if (Status s = writeFileAtomically(path, kept); !s.ok()) return Error{s.error()};
  std::FILE* file = std::fopen(path.c_str(), "a");
  if (file == nullptr) return Error{path + ": cannot open for appending"};
  return MetricsCsvWriter(file);
}

MetricsCsvWriter::MetricsCsvWriter(MetricsCsvWriter&& other) noexcept : file_(other.file_) {
  other.file_ = nullptr;
}

MetricsCsvWriter::~MetricsCsvWriter() {
  if (file_ != nullptr) std::fclose(file_);
}

void MetricsCsvWriter::append(const StepMetrics& m) {
  std::fprintf(file_, "%lld,%d,train,%.6g,%.6g,%.6g,%.6g,,,,\n", static_cast<long long>(m.step),
               m.epoch, m.loss, m.accuracy, m.lr, m.samples_per_s);
  std::fflush(file_);
}

void MetricsCsvWriter::append(const EpochSummary& e, double lr) {
  std::fprintf(file_, "%lld,%d,val,%.6g,%.6g,%.6g,,%s,%s,%s,%s\n", static_cast<long long>(e.step),
               e.epoch, e.val_loss, e.val_accuracy, lr, optionalField(e.bleu).c_str(),
               optionalField(e.cer).c_str(), optionalField(e.wer).c_str(),
               optionalField(e.exact_match).c_str());
  std::fflush(file_);
}

}  // namespace ascope
