#include "engine/train/final_calibration.h"

#include <torch/utils.h>

#include "engine/core/number_text.h"
#include "engine/scoring/calibration_error.h"
#include "engine/scoring/temperature_fit.h"
#include "engine/scoring/temperature_scaling.h"

namespace ascope {
namespace {

/// `scored` measured at temperature 1 and at `temperature`.
Expected<SplitCalibration> measure(const std::vector<ScoredSample>& scored, double temperature) {
  SplitCalibration out;
  out.samples = static_cast<std::int64_t>(scored.size());
  out.nll_before = temperedLoss(scored, 1.0);
  out.nll_after = temperedLoss(scored, temperature);
  Expected<CalibrationError> before = calibrationError(confidenceOutcomes(scored, 1.0));
  if (!before.ok()) return Error{before.error()};
  Expected<CalibrationError> after = calibrationError(confidenceOutcomes(scored, temperature));
  if (!after.ok()) return Error{after.error()};
  out.before = std::move(*before);
  out.after = std::move(*after);
  return out;
}

std::string splitText(const char* name, const SplitCalibration& s) {
  return std::string(name) + " (" + std::to_string(s.samples) + " samples) NLL " +
         formatNumber(s.nll_before, 4) + " → " + formatNumber(s.nll_after, 4) + ", ECE " +
         formatNumber(s.before.ece, 3) + " → " + formatNumber(s.after.ece, 3);
}

}  // namespace

Expected<RunCalibration> calibrateWeights(Task& task, std::int64_t weights_step) {
  torch::NoGradGuard no_grad;
  if (task.validationSize() <= 0) return Error{"no validation split to fit a temperature on"};
  Expected<std::vector<ScoredSample>> validation = task.scoreSplit(DataSplit::kValidation, {});
  if (!validation.ok()) return Error{validation.error()};
  // Fitted on validation only: the test figure below must come from data that chose nothing.
  Expected<TemperatureFit> fit = fitTemperature(*validation);
  if (!fit.ok()) return Error{fit.error()};
  RunCalibration out;
  out.temperature = fit->temperature;
  out.weights_step = weights_step;
  Expected<SplitCalibration> v = measure(*validation, fit->temperature);
  if (!v.ok()) return Error{v.error()};
  out.validation = std::move(*v);
  if (task.testSize() > 0) {
    Expected<std::vector<ScoredSample>> test = task.scoreSplit(DataSplit::kTest, {});
    if (!test.ok()) return Error{test.error()};
    Expected<SplitCalibration> t = measure(*test, fit->temperature);
    if (!t.ok()) return Error{t.error()};
    out.test = std::move(*t);
  }
  return out;
}

std::string calibrationLine(const RunCalibration& c) {
  std::string line = "calibration: temperature " + formatNumber(c.temperature, 4) +
                     " fitted on the validation split (weights of step " +
                     std::to_string(c.weights_step) + "): " + splitText("validation", c.validation);
  if (c.test) line += "; " + splitText("test", *c.test);
  return line + " (calibration.json)";
}

}  // namespace ascope
