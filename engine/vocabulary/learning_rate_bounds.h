#pragma once
// The learning rates the program accepts, written once: the lr setting (validateCommon), a rate
// set while a run goes (TrainingSession::setLearningRate) and the GUI's live field all hold a
// rate to (0, kMaxLearningRate).
#include <cmath>

namespace ascope {

inline constexpr double kMaxLearningRate = 10.0;

/// A finite rate in (0, kMaxLearningRate).
inline bool isAcceptedLearningRate(double lr) {
  return std::isfinite(lr) && lr > 0.0 && lr < kMaxLearningRate;
}

}  // namespace ascope
