#include "engine/runfolder/head_stats/head_stats_csv_reader.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "engine/core/csv_reader.h"
#include "engine/core/printable_text.h"
#include "engine/core/regular_file.h"
#include "engine/core/text_lines.h"

namespace ascope {
namespace {

constexpr std::size_t kFields = 6;

/// A field as messages quote it: cut to a readable length, made printable.
std::string quotedField(std::string_view field) {
  return "\"" + printableText(field, 40) + "\"";
}

/// Plain decimal digits only (no sign, no spaces), as the writer writes them: "-0" is refused too.
std::optional<long long> parseIndex(std::string_view field, long long max) {
  if (!field.empty() && field.front() == '-') return std::nullopt;
  return parseCsvInteger(field, 0, max);
}

/// The whole field as a number, "nan" included; nullopt for anything else.
std::optional<double> parseValue(std::string_view field) {
  double value = 0;
  const char* end = field.data() + field.size();
  if (field.empty()) return std::nullopt;
  const auto [ptr, ec] = std::from_chars(field.data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::string metricNames() {
  std::string names;
  for (const HeadMetricInfo& metric : kHeadMetrics) {
    names += (names.empty() ? "" : ", ") + std::string(metric.name);
  }
  return names;
}

/// The row a writer was cut off writing: too few fields, or a value that stops part-way.
bool isCutShort(std::string_view line) {
  if (line.size() > kMaxHeadStatsLineBytes) return false;
  const Expected<std::vector<std::string>> fields = csvFields(line);
  if (!fields.ok()) return false;
  if (fields->size() < kFields) return true;
  if (fields->size() > kFields) return false;
  const std::string_view value = fields->back();
  if (value == "n" || value == "na") return true;
  if (parseValue(value)) return false;
  return value.find_first_not_of("0123456789.eE+-") == std::string_view::npos;
}

}  // namespace

Expected<HeadStatsRow> parseHeadStatsRow(std::string_view line) {
  if (line.size() > kMaxHeadStatsLineBytes) {
    return Error{"a line of " + std::to_string(line.size()) + " bytes, over the " +
                 std::to_string(kMaxHeadStatsLineBytes) + "-byte limit of a row"};
  }
  const Expected<std::vector<std::string>> fields = csvFields(line);
  if (!fields.ok()) return Error{fields.error()};
  const std::vector<std::string>& f = *fields;
  if (f.size() != kFields) {
    return Error{std::to_string(f.size()) + " fields where " + kHeadStatsCsvHeader + " has 6"};
  }
  HeadStatsRow row;
  const auto step = parseIndex(f[0], INT64_MAX);
  if (!step) return Error{"step " + quotedField(f[0]) + " is not a whole number ≥ 0"};
  row.step = *step;

  const std::string_view group = f[1];
  if (group.empty() || group.size() > kMaxHeadStatsGroupBytes) {
    return Error{"group " + quotedField(group) + " is not a name of 1 to " +
                 std::to_string(kMaxHeadStatsGroupBytes) + " bytes"};
  }
  for (const char c : group) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return Error{"group " + quotedField(group) + " has a control character"};
    }
  }
  // The writer writes the name unquoted, so a name that only quotes could carry (a comma, a leading
  // quote) is not one it wrote, and would not read back as itself.
  if (group.find(',') != std::string_view::npos || group.front() == '"') {
    return Error{"group " + quotedField(group) + " has a comma or starts with a quote"};
  }
  row.statistic.group = std::string(group);

  const char* index_names[] = {"layer", "head"};
  int* indices[] = {&row.statistic.layer, &row.statistic.head};
  for (std::size_t i = 0; i < 2; ++i) {
    const auto index = parseIndex(f[2 + i], kMaxHeadStatsIndex - 1);
    if (!index) {
      return Error{std::string(index_names[i]) + " " + quotedField(f[2 + i]) +
                   " is not a whole number in 0.." + std::to_string(kMaxHeadStatsIndex - 1)};
    }
    *indices[i] = static_cast<int>(*index);
  }

  const HeadMetricInfo* metric = findHeadMetric(f[4]);
  if (metric == nullptr) {
    return Error{"metric " + quotedField(f[4]) + " is not one of " + metricNames()};
  }
  row.statistic.metric = metric->name;

  const auto value = parseValue(f[5]);
  if (!value || std::isinf(*value)) {
    return Error{"value " + quotedField(f[5]) + " is not a number"};
  }
  // NaN is what a diverged run's attention gives; the GUI shows a gap.
  constexpr double kRounding = 1e-3;
  if (!std::isnan(*value)) {
    const double max = metric->unit_range ? 1 + kRounding : kMaxHeadStatsDistance;
    if (*value < -kRounding || *value > max) {
      return Error{"value " + quotedField(f[5]) + " of " + metric->name + " is outside " +
                   (metric->unit_range ? "[0, 1]" : "[0, 1e6]")};
    }
  }
  row.statistic.value = *value;
  return row;
}

Expected<std::vector<HeadStatsRow>> parseHeadStatsCsv(std::string_view text,
                                                      const std::string& name) {
  const std::vector<std::string_view> lines = splitLines(text);
  if (lines.empty() || lines[0] != kHeadStatsCsvHeader) {
    return Error{name + ":1: not the head statistics header " + quotedField(kHeadStatsCsvHeader)};
  }
  std::vector<HeadStatsRow> rows;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    const auto where = [&] { return name + ":" + std::to_string(i + 1) + ": "; };
    Expected<HeadStatsRow> row = parseHeadStatsRow(lines[i]);
    if (!row.ok()) {
      if (isCutShort(lines[i])) continue;
      return Error{where() + row.error()};
    }
    if (rows.size() == kMaxHeadStatsRows) {
      return Error{where() + "more than " + std::to_string(kMaxHeadStatsRows) +
                   " rows, over the limit for this file"};
    }
    rows.push_back(std::move(*row));
  }
  return rows;
}

Expected<std::vector<HeadStatsRow>> readHeadStatsCsv(const std::string& path) {
  Expected<std::string> text = readRegularFile(path, kMaxHeadStatsCsvBytes, Links::kRefuse);
  if (!text.ok()) return Error{text.error()};
  return parseHeadStatsCsv(*text, path);
}

}  // namespace ascope
