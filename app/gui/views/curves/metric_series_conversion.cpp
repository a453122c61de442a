#include "app/gui/views/curves/metric_series_conversion.h"

namespace ascope {
namespace {

template <typename Value>
std::vector<SeriesPoint> points(const std::vector<StepMetrics>& steps, Value value) {
  std::vector<SeriesPoint> out;
  out.reserve(steps.size());
  for (const StepMetrics& m : steps) out.push_back({static_cast<double>(m.step), value(m)});
  return out;
}

}  // namespace

std::vector<SeriesPoint> lossPoints(const std::vector<StepMetrics>& steps) {
  return points(steps, [](const StepMetrics& m) { return m.loss; });
}

std::vector<SeriesPoint> accuracyPoints(const std::vector<StepMetrics>& steps) {
  return points(steps, [](const StepMetrics& m) { return m.accuracy; });
}

}  // namespace ascope
