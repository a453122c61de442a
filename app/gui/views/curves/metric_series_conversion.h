#pragma once
// The metric curves' one conversion: training steps as one series per curve, so a drain of many
// steps is one append per panel.
#include <vector>

#include "engine/vocabulary/events.h"
#include "widgets/curves/decimating_series.h"

namespace ascope {

std::vector<SeriesPoint> lossPoints(const std::vector<StepMetrics>& steps);
std::vector<SeriesPoint> accuracyPoints(const std::vector<StepMetrics>& steps);

}  // namespace ascope
