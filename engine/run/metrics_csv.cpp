#include "engine/run/metrics_csv.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string_view>

#include "engine/core/atomic_file.h"
#include "engine/data/record_tally.h"
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

std::vector<std::string> splitCommas(std::string_view line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    fields.emplace_back(
        line.substr(start, comma == std::string_view::npos ? line.npos : comma - start));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

/// The whole field as a number ("nan" and "inf" included: a diverged run writes them); nullopt
/// for anything else, trailing characters too, which std::stod would have ignored.
std::optional<double> parseDouble(const std::string& field) {
  if (field.empty() || field.front() == ' ') return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(field.c_str(), &end);
  if (end != field.c_str() + field.size() || errno == ERANGE) return std::nullopt;
  return value;
}

std::optional<long long> parseInteger(const std::string& field, long long min, long long max) {
  if (field.empty() || field.front() == ' ') return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(field.c_str(), &end, 10);
  if (end != field.c_str() + field.size() || errno == ERANGE || value < min || value > max) {
    return std::nullopt;
  }
  return value;
}

/// One data row; nullopt when it is not one the writer could have written.
std::optional<MetricsRow> parseRow(std::string_view line) {
  if (line.size() > kMaxMetricsLineBytes) return std::nullopt;
  const std::vector<std::string> f = splitCommas(line);
  if (f.size() < 7 || (f[2] != "train" && f[2] != "val")) return std::nullopt;
  const auto step = parseInteger(f[0], 0, INT64_MAX);
  const auto epoch = parseInteger(f[1], 0, INT32_MAX);
  const auto loss = parseDouble(f[3]);
  const auto accuracy = parseDouble(f[4]);
  const auto lr = parseDouble(f[5]);
  const auto samples_per_s = f[6].empty() ? std::optional<double>(0) : parseDouble(f[6]);
  if (!step || !epoch || !loss || !accuracy || !lr || !samples_per_s) return std::nullopt;
  MetricsRow r;
  r.step = *step;
  r.epoch = static_cast<int>(*epoch);
  r.split = f[2];
  r.loss = *loss;
  r.accuracy = *accuracy;
  r.lr = *lr;
  r.samples_per_s = *samples_per_s;
  if (f.size() >= 11) {
    std::optional<double>* extra[] = {&r.bleu, &r.cer, &r.wer, &r.exact_match};
    for (std::size_t i = 0; i < 4; ++i) {
      if (f[7 + i].empty()) continue;
      *extra[i] = parseDouble(f[7 + i]);
      if (!*extra[i]) return std::nullopt;
    }
  }
  return r;
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
      const std::optional<MetricsRow> row = parseRow(lines[i]);
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

Expected<MetricsCsv> readMetricsCsv(const std::string& path) {
  Expected<std::string> text = readRegularFile(path, kMaxMetricsCsvBytes);
  if (!text.ok()) return Error{text.error()};
  const std::vector<std::string_view> lines = splitLines(*text);
  if (lines.empty() || lines[0].rfind("step,epoch,split,loss,accuracy,lr,samples_per_s", 0) != 0) {
    return Error{path + ": line 1 is not the metrics header"};
  }
  MetricsCsv csv;
  RecordTally malformed("malformed rows skipped");
  std::size_t line_number = 1;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    line_number = i + 1;
    if (lines[i].empty()) continue;
    if (csv.rows.size() == kMaxMetricsRows) {
      csv.warnings.push_back(path + ": only the first " + std::to_string(kMaxMetricsRows) +
                             " rows are read; line " + std::to_string(line_number) +
                             " and after are not");
      break;
    }
    std::optional<MetricsRow> row = parseRow(lines[i]);
    if (!row) {
      malformed.add("line " + std::to_string(line_number));
      continue;
    }
    csv.rows.push_back(std::move(*row));
  }
  malformed.appendWarning(path, csv.warnings);
  return csv;
}

}  // namespace ascope
