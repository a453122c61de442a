#pragma once
// A run's calibration.json (issue 56): the temperature fitted to its final weights on the
// validation split at the end of training, with the calibration error before and after it on
// that split and, measured only, on the test split.
//
//   {"format": 1, "method": "temperature", "temperature": 1.84, "fitted_on": "validation",
//    "weights_step": 1200,
//    "validation": {"samples": 2500, "nll_before": 0.51, "nll_after": 0.34, "ece_before": 0.11,
//                   "ece_after": 0.02, "bins_before": [{"lower": 0, "upper": 0.1, "count": 0,
//                   "confidence": 0, "accuracy": 0}, …], "bins_after": […]},
//    "test": {…the same keys…}}
//
// Read back as untrusted input: a temperature that is not a number in [kMinTemperature,
// kMaxTemperature], or any figure out of its range, is refused with the file and the value named.
// A run made before (no file) answers with temperature 1.
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "engine/vocabulary/calibration.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// RUN_DIR/calibration.json.
std::string calibrationPath(const std::string& run_dir);

/// The run's calibration; nullopt when it has no calibration.json. An error names the file and
/// the key and value it refused.
Expected<std::optional<RunCalibration>> readCalibration(const std::string& run_dir);

/// A reliability diagram's bins as calibration.json holds them (and `evaluate --out` writes them):
/// [{"lower", "upper", "count", "confidence", "accuracy"}, …].
nlohmann::json reliabilityBinsJson(const CalibrationError& error);

/// One split as calibration.json holds it (and the handout packs it): {"samples", "nll_before",
/// "nll_after", "ece_before", "ece_after", "bins_before", "bins_after"}.
nlohmann::json splitCalibrationJson(const SplitCalibration& split);

/// Replaces the run's calibration.json atomically. A temperature outside the readable range is
/// refused, so that nothing is written that would not read back.
Status writeCalibration(const std::string& run_dir, const RunCalibration& calibration);

}  // namespace ascope
