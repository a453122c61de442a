#include "engine/runfolder/ablation/ablation_csv.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "engine/core/atomic_file.h"
#include "engine/core/csv_reader.h"
#include "engine/core/regular_file.h"

namespace ascope {
namespace {

std::string number(double value, const char* format) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string optionalNumber(const std::optional<double>& value, const char* format) {
  return value ? number(*value, format) : std::string();
}

/// Quoted only when it has to be: group names are words, but a task may name one otherwise.
std::string field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string line(const AblationTable& table, const AblationRow& row) {
  return field(row.group) + ',' + std::to_string(row.layer) + ',' + std::to_string(row.head) + ',' +
         field(row.ablation) + ',' + std::to_string(row.samples) + ',' + number(row.loss, "%.6f") +
         ',' + number(table.deltaLoss(row), "%.6f") + ',' + number(row.accuracy, "%.6f") + ',' +
         number(table.deltaAccuracy(row), "%.6f") + ',' + optionalNumber(row.bleu, "%.4f") + ',' +
         optionalNumber(table.deltaBleu(row), "%.4f") + '\n';
}

}  // namespace

std::string ablationCsv(const AblationTable& table) {
  std::string text = std::string(kAblationCsvHeader) + '\n' + line(table, table.baseline);
  for (const AblationRow& row : table.rows) text += line(table, row);
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

/// A finite number written by "%.6f" / "%.4f" (strtod: from_chars of doubles is not in GCC 10).
bool realNumber(const std::string& text, double& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(out);
}

}  // namespace

Expected<AblationTable> readAblationCsv(const std::string& path) {
  Expected<std::string> text = readRegularFile(path, kMaxAblationCsvBytes);
  if (!text.ok()) return Error{text.error()};
  CsvReader reader(*text);
  CsvRecord record;
  if (!reader.next(record) || record.fields.size() != 11 ||
      record.fields[0] + ',' + record.fields[1] != "group,layer") {
    return Error{path + ": not an ablation.csv (the first line is not its header)"};
  }
  AblationTable table;
  bool has_baseline = false;
  while (reader.next(record)) {
    if (record.fields.size() == 1 && record.fields[0].empty()) continue;  // a blank line
    const std::string where = path + ":" + std::to_string(record.line) + ": ";
    if (record.fields.size() != 11 || record.unterminated_quote) {
      return Error{where + "expected 11 fields, got " + std::to_string(record.fields.size())};
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
    if (!record.fields[9].empty()) {
      double bleu = 0;
      if (!realNumber(record.fields[9], bleu)) return Error{where + "bleu is not a number"};
      row.bleu = bleu;
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
