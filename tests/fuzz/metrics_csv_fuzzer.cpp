// Reading metrics.csv: parseMetricsCsv on arbitrary text. It never throws; errors and warnings
// name the input; every non-empty line after the header is a row or counted as skipped; each row
// is one the writer could have written, and written back precisely it parses to the same values.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "engine/core/text_lines.h"
#include "engine/runfolder/metrics/metrics_csv_reader.h"
#include "fuzz_check.h"

namespace {

bool sameNumber(double a, double b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}

bool sameOptional(const std::optional<double>& a, const std::optional<double>& b) {
  return a.has_value() == b.has_value() && (!a || sameNumber(*a, *b));
}

std::string number(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

std::string optionalNumber(const std::optional<double>& v) {
  return v ? number(*v) : "";
}

std::string optionalCount(const std::optional<std::int64_t>& v) {
  return v ? std::to_string(*v) : "";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ascope::fuzz::check;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const ascope::Expected<ascope::MetricsCsv> csv = ascope::parseMetricsCsv(text, "fuzz.csv");
  if (!csv.ok()) {
    check(csv.error().rfind("fuzz.csv: ", 0) == 0);
    return 0;
  }
  const std::vector<std::string_view> lines = ascope::splitLines(text);
  std::size_t non_empty = 0;
  for (std::size_t i = 1; i < lines.size(); ++i) non_empty += lines[i].empty() ? 0 : 1;
  check(csv->rows.size() <= non_empty && csv->rows.size() <= ascope::kMaxMetricsRows);
  const std::size_t skipped = non_empty - csv->rows.size();
  // One warning for the skipped rows, with their count (the row limit is far beyond any input).
  check(csv->warnings.size() == (skipped == 0 ? 0u : 1u));
  for (const std::string& warning : csv->warnings) check(warning.rfind("fuzz.csv: ", 0) == 0);
  if (skipped != 0) {
    check(csv->warnings[0].rfind("fuzz.csv: " + std::to_string(skipped) + " malformed rows", 0) ==
          0);
  }

  for (const ascope::MetricsRow& row : csv->rows) {
    check(row.step >= 0 && row.epoch >= 0);
    check(row.split == "train" || row.split == "val" || row.split == "test");
    check((!row.samples || *row.samples >= 0) && (!row.weights_step || *row.weights_step >= 0));
    const std::vector<std::string>& names = csv->columns.names();
    std::string line = std::to_string(row.step) + "," + std::to_string(row.epoch) + "," +
                       row.split + "," + number(row.loss) + "," + number(row.accuracy) + "," +
                       number(row.lr) + "," + number(row.samples_per_s);
    for (std::size_t i = 7; i < names.size(); ++i) {
      line += "," + (names[i] == "samples"        ? optionalCount(row.samples)
                     : names[i] == "weights_step" ? optionalCount(row.weights_step)
                                                  : optionalNumber(row.figures.get(names[i])));
    }
    const std::optional<ascope::MetricsRow> again = ascope::parseMetricsRow(line, csv->columns);
    check(again.has_value());
    check(again->step == row.step && again->epoch == row.epoch && again->split == row.split);
    check(sameNumber(again->loss, row.loss) && sameNumber(again->accuracy, row.accuracy) &&
          sameNumber(again->lr, row.lr) && sameNumber(again->samples_per_s, row.samples_per_s));
    check(again->figures.size() == row.figures.size());
    for (const ascope::Figure& f : row.figures) {
      check(sameOptional(again->figures.get(f.key), f.value));
    }
    check(again->samples == row.samples && again->weights_step == row.weights_step);
  }
  return 0;
}
