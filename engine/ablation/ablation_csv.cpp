#include "engine/ablation/ablation_csv.h"

#include <cstdio>

#include "engine/core/atomic_file.h"

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

}  // namespace ascope
