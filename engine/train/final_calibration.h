#pragma once
// The temperature of a classifier run's final weights (issue 56), fitted at the end of training on
// the validation split, measured there and on the test split, for calibration.json. Runs on the
// trainer thread, with the weights the final test used in the model.
#include <cstdint>
#include <string>

#include "engine/tasks/task.h"
#include "engine/vocabulary/calibration.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// The temperature fitted to the task's current weights (those of `weights_step`) on the
/// validation split, with the calibration error before and after it there and, when the task has
/// a test split, on the test split (which chooses nothing). An error for a task whose scored
/// samples carry no logits or a split that cannot be scored.
Expected<RunCalibration> calibrateWeights(Task& task, std::int64_t weights_step);

/// One line for the log: the temperature, and NLL and ECE before → after on each split.
std::string calibrationLine(const RunCalibration& calibration);

}  // namespace ascope
