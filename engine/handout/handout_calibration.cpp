#include "engine/handout/handout_calibration.h"

#include "engine/runfolder/calibration/calibration_file.h"

namespace ascope {

using nlohmann::json;

void readHandoutCalibration(const std::string& run_dir, HandoutData& data) {
  Expected<std::optional<RunCalibration>> read = readCalibration(run_dir);
  if (!read.ok()) {
    data.warnings.push_back(read.error());
    return;
  }
  data.calibration = std::move(*read);
}

json calibrationSection(const RunCalibration& c) {
  return {{"temperature", c.temperature},
          {"weights_step", c.weights_step},
          {"validation", splitCalibrationJson(c.validation)},
          {"test", c.test ? splitCalibrationJson(*c.test) : json(nullptr)}};
}

}  // namespace ascope
