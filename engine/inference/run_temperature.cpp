#include "engine/inference/run_temperature.h"

#include "engine/core/number_text.h"
#include "engine/runfolder/calibration/calibration_file.h"

namespace ascope {

RunTemperature runTemperature(const std::string& run_dir, std::int64_t weights_step) {
  RunTemperature out;
  const Expected<std::optional<RunCalibration>> read = readCalibration(run_dir);
  if (!read.ok()) {
    out.warning = read.error() + "; the model's own probabilities are shown (temperature 1)";
    out.source = "calibration.json refused: the model's own probabilities (temperature 1)";
    return out;
  }
  if (!read->has_value()) {
    out.source =
        "no calibration.json (a run made before calibration, not a classifier, or not finished): "
        "the model's own probabilities (temperature 1)";
    return out;
  }
  const RunCalibration& c = **read;
  if (c.weights_step != weights_step) {
    // A temperature fits one set of weights: those of another step may be sure of other things.
    out.for_other_weights = true;
    out.source = "calibration.json was fitted to the weights of step " +
                 std::to_string(c.weights_step) + ", these are of step " +
                 std::to_string(weights_step) + ": the model's own probabilities (temperature 1)";
    return out;
  }
  out.temperature = c.temperature;
  out.source = "temperature " + formatNumber(c.temperature, 4) +
               " from calibration.json, fitted on the validation split to the weights of step " +
               std::to_string(c.weights_step);
  return out;
}

}  // namespace ascope
