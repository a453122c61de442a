#include "engine/ablation/ablation_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ascope {
namespace {

constexpr std::size_t kLabelWidth = 10;  // "  layer 11"
constexpr std::size_t kCellWidth = 8;    // "head 15" and "-100.0" with room
constexpr std::size_t kLayerCellWidth = 12;

enum class Measure { kAccuracy, kBleu };

std::string padLeft(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

std::string padRight(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

/// "+1.2", "-0.4", or "0.0" for a change that rounds to nothing (never "-0.0").
std::string change(std::optional<double> value) {
  if (!value) return "n/a";
  if (std::fabs(*value) < 0.05) return "0.0";
  return format("%+.1f", *value);
}

std::optional<double> changeOf(const AblationTable& table, const AblationRow* row,
                               Measure measure) {
  if (row == nullptr) return std::nullopt;
  if (measure == Measure::kBleu) return table.deltaBleu(*row);
  return 100.0 * table.deltaAccuracy(*row);
}

struct GroupShape {
  int layers = 0;
  int heads = 0;
};

GroupShape shapeOf(const AblationTable& table, const std::string& group) {
  GroupShape shape;
  for (const AblationRow& row : table.rows) {
    if (row.group != group) continue;
    shape.layers = std::max(shape.layers, row.layer + 1);
    shape.heads = std::max(shape.heads, row.head + 1);
  }
  return shape;
}

/// One grid: a row per layer, a column per head of `ablation`, plus "drop layer" when asked.
std::string grid(const AblationTable& table, const std::string& group, const GroupShape& shape,
                 const std::string& ablation, Measure measure, bool with_layer_column) {
  const std::string measure_name = measure == Measure::kBleu ? "ΔBLEU" : "Δaccuracy";
  const std::string what =
      ablation == kAblationDropHead ? "that head dropped" : "only that head kept";
  std::string out = group + " · " + measure_name + " with " + what + "\n";
  out += std::string(kLabelWidth, ' ');
  for (int head = 0; head < shape.heads; ++head) {
    out += padLeft("head " + std::to_string(head), kCellWidth);
  }
  if (with_layer_column) out += padLeft("drop layer", kLayerCellWidth);
  out += '\n';
  for (int layer = 0; layer < shape.layers; ++layer) {
    out += padRight("  layer " + std::to_string(layer), kLabelWidth);
    for (int head = 0; head < shape.heads; ++head) {
      const AblationRow* row = table.find(group, layer, head, ablation);
      out += padLeft(change(changeOf(table, row, measure)), kCellWidth);
    }
    if (with_layer_column) {
      const AblationRow* row = table.find(group, layer, -1, kAblationDropLayer);
      out += padLeft(change(changeOf(table, row, measure)), kLayerCellWidth);
    }
    out += '\n';
  }
  return out;
}

std::string baselineLine(const AblationTable& table) {
  const AblationRow& b = table.baseline;
  std::string out = "baseline (every head on): loss " + format("%.4f", b.loss) + ", accuracy " +
                    format("%.2f", 100.0 * b.accuracy) + "%";
  if (b.bleu) out += ", BLEU " + format("%.2f", *b.bleu);
  out += " over " + std::to_string(b.samples) + " validation samples";
  if (b.bleu) out += " (BLEU over " + std::to_string(table.decoded_samples) + " decoded)";
  return out + "\n";
}

}  // namespace

std::string formatAblationTable(const AblationTable& table) {
  std::string out = baselineLine(table);
  out += "Cells: change from the baseline, accuracy in percentage points";
  out += table.baseline.bleu ? ", BLEU in BLEU points.\n" : ".\n";
  for (const std::string& group : table.groups()) {
    const GroupShape shape = shapeOf(table, group);
    std::vector<Measure> measures{Measure::kAccuracy};
    if (table.baseline.bleu) measures.push_back(Measure::kBleu);
    for (Measure measure : measures) {
      out += '\n' + grid(table, group, shape, kAblationDropHead, measure, true);
      out += grid(table, group, shape, kAblationKeepOnlyHead, measure, false);
    }
  }
  return out;
}

}  // namespace ascope
