#include "engine/runfolder/ablation/ablation_csv.h"

#include <array>
#include <charconv>
#include <cmath>

#include "engine/core/atomic_file.h"
#include "engine/core/csv_field.h"
#include "engine/core/csv_reader.h"
#include "engine/core/number_text.h"
#include "engine/core/regular_file.h"
#include "engine/vocabulary/metric_info.h"

namespace ascope {
namespace {

/// `decimals` digits after the point, as "%.6f" in the C locale (snprintf would follow the GUI's
/// LC_NUMERIC and write "0,5").
std::string number(double value, int decimals) {
  std::array<char, 400> text{};  // the longest fixed double is 309 digits + decimals
  const std::to_chars_result result = std::to_chars(text.data(), text.data() + text.size(), value,
                                                    std::chars_format::fixed, decimals);
  return std::string(text.data(), result.ptr);
}

std::string optionalNumber(const std::optional<double>& value, int decimals) {
  return value ? number(*value, decimals) : std::string();
}

/// Columns before the figures' pairs.
constexpr std::size_t kFixedFields = 9;
/// A task tracks a handful of figures; a header naming more pairs is not ours.
constexpr std::size_t kMaxFigureColumns = 32;

std::string line(const AblationTable& table, const std::vector<std::string>& keys,
                 const AblationRow& row) {
  std::string out = csvField(row.group) + ',' + std::to_string(row.layer) + ',' +
                    std::to_string(row.head) + ',' + csvField(row.ablation) + ',' +
                    std::to_string(row.samples) + ',' + number(row.loss, 6) + ',' +
                    number(table.deltaLoss(row), 6) + ',' + number(row.accuracy, 6) + ',' +
                    number(table.deltaAccuracy(row), 6);
  for (const std::string& key : keys) {
    out += ',' + optionalNumber(row.figures.get(key), 4) + ',' +
           optionalNumber(table.deltaFigure(row, key), 4);
  }
  return out + '\n';
}

}  // namespace

std::string ablationCsv(const AblationTable& table) {
  const std::vector<std::string> keys = table.figureKeys();
  std::string text = kAblationCsvHeader;
  for (const std::string& key : keys) text += ',' + key + ",delta_" + key;
  text += '\n' + line(table, keys, table.baseline);
  for (const AblationRow& row : table.rows) text += line(table, keys, row);
  return text;
}

Status writeAblationCsv(const std::string& path, const AblationTable& table) {
  return writeFileAtomically(path, ablationCsv(table));
}

namespace {

constexpr std::uint64_t kMaxAblationCsvBytes = std::uint64_t{16} << 20;
constexpr std::size_t kMaxAblationRows = 100000;

bool wholeNumber(const std::string& text, int min, int max, int& out) {
  const std::optional<long long> value = parseCsvInteger(text, min, max);
  if (value) out = static_cast<int>(*value);
  return value.has_value();
}

/// A finite number, read whatever the locale.
bool realNumber(const std::string& text, double& out) {
  const std::optional<double> value = parseNumber(text);
  if (value) out = *value;
  return value && std::isfinite(*value);
}

}  // namespace

Expected<AblationTable> readAblationCsv(const std::string& path) {
  Expected<std::string> text = readRegularFile(path, kMaxAblationCsvBytes, Links::kRefuse);
  if (!text.ok()) return Error{text.error()};
  CsvReader reader(*text);
  CsvRecord record;
  const std::string not_ours = path + ": not an ablation.csv (the first line is not its header)";
  if (!reader.next(record) || record.fields.size() < kFixedFields ||
      (record.fields.size() - kFixedFields) % 2 != 0 ||
      record.fields.size() > kFixedFields + 2 * kMaxFigureColumns) {
    return Error{not_ours};
  }
  std::string fixed;
  for (std::size_t i = 0; i < kFixedFields; ++i) fixed += (i > 0 ? "," : "") + record.fields[i];
  if (fixed != kAblationCsvHeader) return Error{not_ours};
  std::vector<std::string> keys;
  for (std::size_t i = kFixedFields; i < record.fields.size(); i += 2) {
    const std::string& key = record.fields[i];
    if (!isMetricKey(key) || record.fields[i + 1] != "delta_" + key) {
      return Error{path + ": line 1: columns " + std::to_string(i + 1) + " and " +
                   std::to_string(i + 2) + " are not a figure and its delta"};
    }
    keys.push_back(key);
  }
  const std::size_t fields = record.fields.size();
  AblationTable table;
  bool has_baseline = false;
  while (reader.next(record)) {
    if (record.fields.size() == 1 && record.fields[0].empty()) continue;  // a blank line
    const std::string where = path + ":" + std::to_string(record.line) + ": ";
    if (record.fields.size() != fields || record.unterminated_quote) {
      return Error{where + "expected " + std::to_string(fields) + " fields, got " +
                   std::to_string(record.fields.size())};
    }
    AblationRow row;
    row.group = record.fields[0];
    row.ablation = record.fields[3];
    if (!wholeNumber(record.fields[1], -1, 1023, row.layer) ||
        !wholeNumber(record.fields[2], -1, 1023, row.head) ||
        !wholeNumber(record.fields[4], 0, 100'000'000, row.samples) ||
        !realNumber(record.fields[5], row.loss) || !realNumber(record.fields[7], row.accuracy)) {
      return Error{where + "layer, head, samples, loss or accuracy is not a number in range"};
    }
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const std::string& cell = record.fields[kFixedFields + 2 * k];
      if (cell.empty()) continue;
      double value = 0;
      if (!realNumber(cell, value)) return Error{where + keys[k] + " is not a number"};
      row.figures.set(keys[k], value);
    }
    if (row.ablation == kAblationNone) {
      table.baseline = row;
      has_baseline = true;
    } else if (row.ablation == kAblationDropHead || row.ablation == kAblationKeepOnlyHead ||
               row.ablation == kAblationDropLayer) {
      if (table.rows.size() >= kMaxAblationRows) {
        return Error{path + ": more than " + std::to_string(kMaxAblationRows) + " rows"};
      }
      table.rows.push_back(std::move(row));
    } else {
      return Error{where + "ablation \"" + row.ablation + "\" is not one of none, " +
                   kAblationDropHead + ", " + kAblationKeepOnlyHead + ", " + kAblationDropLayer};
    }
  }
  if (!has_baseline) return Error{path + ": no baseline row (ablation \"none\")"};
  return table;
}

}  // namespace ascope
