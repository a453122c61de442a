#pragma once
// The handout's calibration section (issue 56): the run's calibration.json — the temperature fitted
// on the validation split, the expected calibration error and reliability diagram before and after
// it, on the validation and the test split — read from the run folder and packed for the page
// (resources/handout/js/calibration.js draws it).
#include <nlohmann/json.hpp>

#include <string>

#include "engine/handout/handout_data.h"

namespace ascope {

/// Sets data.calibration from the run's calibration.json; none when the run has none, and a
/// warning (the file and the value named) when it is refused.
void readHandoutCalibration(const std::string& run_dir, HandoutData& data);

/// {"temperature", "weights_step", "validation": split, "test": split | null}, a split being
/// {"samples", "nll_before", "nll_after", "ece_before", "ece_after", "bins_before", "bins_after"},
/// a bin {"lower", "upper", "count", "confidence", "accuracy"}.
nlohmann::json calibrationSection(const RunCalibration& calibration);

}  // namespace ascope
