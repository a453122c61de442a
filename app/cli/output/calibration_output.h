#pragma once
// A classifier's calibration in `evaluate`'s report (issue 56): the expected calibration error
// before and after the run's temperature, and the reliability diagram's bins, printed and as JSON.
#include <nlohmann/json_fwd.hpp>

#include "engine/vocabulary/calibration.h"

namespace ascope::cli {

/// {"temperature", "source", "bins" (10), "ece" (at the temperature), "ece_before" (at 1),
///  "reliability" [{"lower", "upper", "count", "confidence", "accuracy"}] (at the temperature),
///  "reliability_before" [the same at 1]}
nlohmann::json calibrationJson(const AppliedCalibration& calibration);

/// The ECE before → after, where the temperature came from, and one line per bin.
void printCalibration(const AppliedCalibration& calibration);

}  // namespace ascope::cli
