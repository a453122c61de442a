#include "engine/runfolder/metrics/metrics_csv_reader.h"

#include <cerrno>
#include <cstdlib>

#include "engine/core/csv_reader.h"
#include "engine/core/number_text.h"
#include "engine/core/regular_file.h"
#include "engine/core/text_lines.h"
#include "engine/datasets/record_tally.h"

namespace ascope {
namespace {

/// The whole field as a number ("nan" and "inf" included: a diverged run writes them); nullopt
/// for anything else, trailing characters too, which std::stod would have ignored.
std::optional<double> parseDouble(const std::string& field) {
  return parseNumber(field);  // whatever the locale: the GUI's LC_NUMERIC may want "0,5"
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

}  // namespace

std::optional<MetricsRow> parseMetricsRow(std::string_view line) {
  if (line.size() > kMaxMetricsLineBytes) return std::nullopt;
  const Expected<std::vector<std::string>> fields = csvFields(line);
  if (!fields.ok()) return std::nullopt;
  const std::vector<std::string>& f = *fields;
  if (f.size() < 7 || (f[2] != "train" && f[2] != "val" && f[2] != "test")) return std::nullopt;
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
  if (f.size() >= 13) {
    std::optional<int64_t>* counts[] = {&r.samples, &r.weights_step};
    for (std::size_t i = 0; i < 2; ++i) {
      if (f[11 + i].empty()) continue;
      const auto count = parseInteger(f[11 + i], 0, INT64_MAX);
      if (!count) return std::nullopt;
      *counts[i] = *count;
    }
  }
  return r;
}

Expected<MetricsCsv> parseMetricsCsv(std::string_view text, const std::string& name) {
  const std::vector<std::string_view> lines = splitLines(text);
  if (lines.empty() || lines[0].rfind("step,epoch,split,loss,accuracy,lr,samples_per_s", 0) != 0) {
    return Error{name + ": line 1 is not the metrics header"};
  }
  MetricsCsv csv;
  RecordTally malformed("malformed rows skipped");
  std::size_t line_number = 1;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    line_number = i + 1;
    if (lines[i].empty()) continue;
    if (csv.rows.size() == kMaxMetricsRows) {
      csv.warnings.push_back(name + ": only the first " + std::to_string(kMaxMetricsRows) +
                             " rows are read; line " + std::to_string(line_number) +
                             " and after are not");
      break;
    }
    std::optional<MetricsRow> row = parseMetricsRow(lines[i]);
    if (!row) {
      malformed.add("line " + std::to_string(line_number));
      continue;
    }
    csv.rows.push_back(std::move(*row));
  }
  malformed.appendWarning(name, csv.warnings);
  return csv;
}

Expected<MetricsCsv> readMetricsCsv(const std::string& path) {
  Expected<std::string> text = readRegularFile(path, kMaxMetricsCsvBytes, Links::kRefuse);
  if (!text.ok()) return Error{text.error()};
  return parseMetricsCsv(*text, path);
}

}  // namespace ascope
