#include "engine/vocabulary/metric_info.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <string_view>

namespace ascope {
namespace {

/// metrics.csv's and ablation.csv's own columns: a figure named like one would be read as it.
constexpr std::array<std::string_view, 13> kReservedKeys = {
    "step",    "epoch",        "split", "loss",  "accuracy", "lr",      "samples_per_s",
    "samples", "weights_step", "group", "layer", "head",     "ablation"};

}  // namespace

std::string MetricInfo::format(double value) const {
  if (!std::isfinite(value)) return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
  const int digits = decimals < 0 ? 0 : (decimals > 9 ? 9 : decimals);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
  std::string text = buffer;
  // snprintf follows LC_NUMERIC; a figure is written the same way under any locale.
  for (char& c : text) {
    if (c == ',') c = '.';
  }
  return text;
}

bool MetricInfo::isBetter(double a, double b) const {
  return better == Better::kHigher ? a > b : a < b;
}

bool isMetricKey(const std::string& key) {
  if (key.empty() || key.size() > 32 || key.front() < 'a' || key.front() > 'z') return false;
  for (const char c : key) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  for (const std::string_view reserved : kReservedKeys) {
    if (key == reserved) return false;
  }
  return key.rfind("delta_", 0) != 0;  // ablation.csv's delta columns
}

const MetricInfo* findMetric(const std::vector<MetricInfo>& metrics, const std::string& key) {
  for (const MetricInfo& m : metrics) {
    if (m.key == key) return &m;
  }
  return nullptr;
}

MetricInfo undeclaredMetric(const std::string& key) {
  MetricInfo m;
  m.key = key;
  m.title = key;
  m.decimals = 4;
  return m;
}

}  // namespace ascope
