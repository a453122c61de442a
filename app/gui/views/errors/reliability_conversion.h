#pragma once
// A scored split's calibration (engine/vocabulary/calibration.h) as the Errors dock's reliability
// diagram data (widgets/tables/reliability_diagram_data.h).
#include "engine/vocabulary/calibration.h"
#include "widgets/tables/reliability_diagram_data.h"

namespace ascope {

ReliabilityDiagramData toReliabilityDiagramData(const AppliedCalibration& calibration);

}  // namespace ascope
