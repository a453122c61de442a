#include "engine/ablation/ablation_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ascope {
namespace {

constexpr std::size_t kLabelWidth = 10;  // "  layer 11"
constexpr std::size_t kCellWidth = 8;    // "head 15" and "-100.0" with room
constexpr std::size_t kLayerCellWidth = 12;

/// What a grid shows: the accuracy (in percentage points) or one figure (in its own unit).
struct Measure {
  MetricInfo figure;  ///< key "" for the accuracy
  bool isAccuracy() const { return figure.key.empty(); }
};

std::string padLeft(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

std::string padRight(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

std::string format(const char* pattern, double value, int digits = -1) {
  char text[64];
  if (digits < 0) {
    std::snprintf(text, sizeof text, pattern, value);
  } else {
    std::snprintf(text, sizeof text, pattern, digits, value);
  }
  return text;
}

/// "+1.2", "-0.4", or "0.0" for a change that rounds to nothing (never "-0.0"), with `decimals`
/// digits after the point.
std::string change(std::optional<double> value, int decimals) {
  if (!value) return "n/a";
  const int digits = std::clamp(decimals, 0, 4);
  if (std::fabs(*value) < 0.5 * std::pow(10.0, -digits)) return format("%.*f", 0.0, digits);
  char text[64];
  std::snprintf(text, sizeof text, "%+.*f", digits, *value);
  return text;
}

std::string change(const AblationTable& table, const AblationRow* row, const Measure& measure) {
  if (measure.isAccuracy()) {
    return change(row ? std::optional<double>(100.0 * table.deltaAccuracy(*row)) : std::nullopt, 1);
  }
  return change(row ? table.deltaFigure(*row, measure.figure.key) : std::nullopt,
                std::max(1, measure.figure.decimals));
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
                 const std::string& ablation, const Measure& measure, bool with_layer_column) {
  const std::string measure_name = "Δ" + (measure.isAccuracy() ? "accuracy" : measure.figure.title);
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
      out += padLeft(change(table, row, measure), kCellWidth);
    }
    if (with_layer_column) {
      const AblationRow* row = table.find(group, layer, -1, kAblationDropLayer);
      out += padLeft(change(table, row, measure), kLayerCellWidth);
    }
    out += '\n';
  }
  return out;
}

std::string baselineLine(const AblationTable& table, const std::vector<Measure>& figures) {
  const AblationRow& b = table.baseline;
  std::string out = "baseline (every head on): loss " + format("%.4f", b.loss) + ", accuracy " +
                    format("%.2f", 100.0 * b.accuracy) + "%";
  for (const Measure& m : figures) {
    out += ", " + m.figure.title + " " + m.figure.format(b.figures.get(m.figure.key).value_or(0));
  }
  out += " over " + std::to_string(b.samples) + " validation samples";
  if (!figures.empty() && table.decoded_samples > 0) {
    out += " (figures over " + std::to_string(table.decoded_samples) + " answers generated)";
  }
  return out + "\n";
}

}  // namespace

std::string formatAblationTable(const AblationTable& table,
                                const std::vector<MetricInfo>& declared) {
  std::vector<Measure> figures;
  for (const std::string& key : table.figureKeys()) {
    const MetricInfo* known = findMetric(declared, key);
    figures.push_back({known ? *known : undeclaredMetric(key)});
  }
  std::string out = baselineLine(table, figures);
  out += "Cells: change from the baseline, accuracy in percentage points";
  for (const Measure& m : figures) out += ", " + m.figure.title + " in its own unit";
  out += ".\n";
  std::vector<Measure> measures{Measure{}};
  measures.insert(measures.end(), figures.begin(), figures.end());
  for (const std::string& group : table.groups()) {
    const GroupShape shape = shapeOf(table, group);
    for (const Measure& measure : measures) {
      out += '\n' + grid(table, group, shape, kAblationDropHead, measure, true);
      out += grid(table, group, shape, kAblationKeepOnlyHead, measure, false);
    }
  }
  return out;
}

}  // namespace ascope
