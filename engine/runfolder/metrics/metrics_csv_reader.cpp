#include "engine/runfolder/metrics/metrics_csv_reader.h"

#include <array>
#include <cerrno>
#include <cstdlib>

#include "engine/core/csv_reader.h"
#include "engine/core/number_text.h"
#include "engine/core/regular_file.h"
#include "engine/core/text_lines.h"
#include "engine/datasets/record_tally.h"
#include "engine/vocabulary/metric_info.h"

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

constexpr std::array<const char*, 7> kFixedColumns = {"step",     "epoch", "split",        "loss",
                                                      "accuracy", "lr",    "samples_per_s"};
constexpr const char* kSamples = "samples";
constexpr const char* kWeightsStep = "weights_step";

}  // namespace

MetricsColumns MetricsColumns::forFigures(const std::vector<std::string>& figure_keys) {
  MetricsColumns c;
  c.names_.assign(kFixedColumns.begin(), kFixedColumns.end());
  c.names_.emplace_back(kSamples);
  c.names_.emplace_back(kWeightsStep);
  for (const std::string& key : figure_keys) {
    if (c.indexOf(key) < 0 && c.names_.size() < kMaxMetricsColumns) c.names_.push_back(key);
  }
  return c;
}

Expected<MetricsColumns> MetricsColumns::parse(std::string_view header) {
  const Expected<std::vector<std::string>> fields = csvFields(header);
  const std::string not_header = "line 1 is not the metrics header";
  if (!fields.ok() || fields->size() < kFixedColumns.size()) return Error{not_header};
  for (std::size_t i = 0; i < kFixedColumns.size(); ++i) {
    if ((*fields)[i] != kFixedColumns[i]) return Error{not_header};
  }
  if (fields->size() > kMaxMetricsColumns) {
    return Error{"line 1 names " + std::to_string(fields->size()) + " columns, more than the " +
                 std::to_string(kMaxMetricsColumns) + " a metrics file has"};
  }
  MetricsColumns c;
  for (std::size_t i = 0; i < fields->size(); ++i) {
    const std::string& name = (*fields)[i];
    if (i >= kFixedColumns.size() && name != kSamples && name != kWeightsStep &&
        !isMetricKey(name)) {
      return Error{"line 1: column " + std::to_string(i + 1) + " is not a figure's name"};
    }
    if (c.indexOf(name) >= 0) {
      return Error{"line 1: column " + std::to_string(i + 1) + " repeats an earlier one"};
    }
    c.names_.push_back(name);
  }
  return c;
}

MetricsColumns MetricsColumns::extendedWith(const MetricsColumns& wanted) const {
  MetricsColumns out = *this;
  for (const std::string& name : wanted.names_) {
    if (out.indexOf(name) < 0 && out.names_.size() < kMaxMetricsColumns) out.names_.push_back(name);
  }
  return out;
}

std::string MetricsColumns::header() const {
  std::string out;
  for (const std::string& name : names_) {
    if (!out.empty()) out.push_back(',');
    out += name;
  }
  return out;
}

int MetricsColumns::indexOf(const std::string& name) const {
  for (std::size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == name) return static_cast<int>(i);
  }
  return -1;
}

std::optional<MetricsRow> parseMetricsRow(std::string_view line, const MetricsColumns& columns) {
  if (line.size() > kMaxMetricsLineBytes) return std::nullopt;
  const Expected<std::vector<std::string>> fields = csvFields(line);
  if (!fields.ok()) return std::nullopt;
  const std::vector<std::string>& f = *fields;
  if (f.size() < kFixedColumns.size() || f.size() > columns.names().size()) return std::nullopt;
  if (f[2] != "train" && f[2] != "val" && f[2] != "test") return std::nullopt;
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
  for (std::size_t i = kFixedColumns.size(); i < f.size(); ++i) {
    if (f[i].empty()) continue;
    const std::string& name = columns.names()[i];
    if (name == kSamples || name == kWeightsStep) {
      const auto count = parseInteger(f[i], 0, INT64_MAX);
      if (!count) return std::nullopt;
      (name == kSamples ? r.samples : r.weights_step) = *count;
      continue;
    }
    const std::optional<double> value = parseDouble(f[i]);
    if (!value) return std::nullopt;
    r.figures.set(name, *value);
  }
  return r;
}

Expected<MetricsCsv> parseMetricsCsv(std::string_view text, const std::string& name) {
  const std::vector<std::string_view> lines = splitLines(text);
  if (lines.empty() || lines[0].size() > kMaxMetricsHeaderBytes) {
    return Error{name + ": line 1 is not the metrics header"};
  }
  Expected<MetricsColumns> columns = MetricsColumns::parse(lines[0]);
  if (!columns.ok()) return Error{name + ": " + columns.error()};
  MetricsCsv csv;
  csv.columns = std::move(*columns);
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
    std::optional<MetricsRow> row = parseMetricsRow(lines[i], csv.columns);
    if (!row) {
      malformed.add("line " + std::to_string(line_number));
      continue;
    }
    csv.rows.push_back(std::move(*row));
  }
  malformed.appendWarning(name, csv.warnings);
  return csv;
}

Expected<MetricsColumns> readMetricsColumns(const std::string& path) {
  Expected<std::string> head = readRegularFileHead(path, kMaxMetricsHeaderBytes + 1);
  if (!head.ok()) return Error{head.error()};
  const std::size_t end = head->find('\n');
  if (end == std::string::npos) return Error{path + ": line 1 is not the metrics header"};
  Expected<MetricsColumns> columns = MetricsColumns::parse(std::string_view(*head).substr(0, end));
  if (!columns.ok()) return Error{path + ": " + columns.error()};
  return columns;
}

Expected<MetricsCsv> readMetricsCsv(const std::string& path) {
  Expected<std::string> text = readRegularFile(path, kMaxMetricsCsvBytes);
  if (!text.ok()) return Error{text.error()};
  return parseMetricsCsv(*text, path);
}

}  // namespace ascope
