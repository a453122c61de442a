// Reading head_stats.csv: parseHeadStatsCsv on arbitrary text. It never throws; errors name the
// input and a line; the rows are exactly the lines that parse on their own, each one the writer
// could have written (known metric, indices and group name within the limits, value in range or
// NaN), and written back precisely it parses to the same values.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/text_lines.h"
#include "engine/runfolder/head_stats/head_stats_csv_reader.h"
#include "fuzz_check.h"

namespace {

bool sameNumber(double a, double b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}

std::string number(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ascope::fuzz::check;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const ascope::Expected<std::vector<ascope::HeadStatsRow>> rows =
      ascope::parseHeadStatsCsv(text, "fuzz.csv");
  if (!rows.ok()) {
    check(rows.error().rfind("fuzz.csv:", 0) == 0);
    return 0;
  }
  const std::vector<std::string_view> lines = ascope::splitLines(text);
  std::size_t parsed = 0;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    parsed += ascope::parseHeadStatsRow(lines[i]).ok() ? 1 : 0;
  }
  check(rows->size() == parsed && rows->size() <= ascope::kMaxHeadStatsRows);

  for (const ascope::HeadStatsRow& row : *rows) {
    const ascope::HeadStatistic& s = row.statistic;
    check(row.step >= 0);
    check(s.layer >= 0 && s.layer < ascope::kMaxHeadStatsIndex);
    check(s.head >= 0 && s.head < ascope::kMaxHeadStatsIndex);
    check(!s.group.empty() && s.group.size() <= ascope::kMaxHeadStatsGroupBytes);
    check(s.group.find(',') == std::string::npos && s.group.find('\n') == std::string::npos);
    const ascope::HeadMetricInfo* metric = ascope::findHeadMetric(s.metric);
    check(metric != nullptr);
    check(!std::isinf(s.value));
    if (!std::isnan(s.value)) {
      check(s.value > -0.01 && s.value <= (metric->unit_range ? 1.01 : 1e6 + 1));
    }
    const std::string line = std::to_string(row.step) + "," + s.group + "," +
                             std::to_string(s.layer) + "," + std::to_string(s.head) + "," +
                             s.metric + "," + number(s.value);
    const ascope::Expected<ascope::HeadStatsRow> again = ascope::parseHeadStatsRow(line);
    check(again.ok());
    check(again->step == row.step && again->statistic.group == s.group &&
          again->statistic.layer == s.layer && again->statistic.head == s.head &&
          again->statistic.metric == s.metric && sameNumber(again->statistic.value, s.value));
  }
  return 0;
}
