#pragma once
// The expected calibration error and reliability diagram of a classifier's answers (issue 56), as
// Guo et al. (2017) define them: the answers binned by confidence into kReliabilityBins
// equal-width bins, ECE = Σ_b (n_b / N) · |accuracy_b − confidence_b|. Plain C++, no LibTorch.
#include <vector>

#include "engine/vocabulary/calibration.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// One answer: the probability of the class answered, and whether it was the right one.
struct ConfidenceOutcome {
  double confidence = 0;
  bool correct = false;
};

/// ECE and bins of `outcomes`. Bin b holds confidences in [b/bins, (b+1)/bins); the last bin also
/// holds 1.0. An error for no outcomes, `bins` < 1, or a confidence that is not a number in
/// [0, 1] (named by its index): a NaN would land in no bin and lower the figure silently.
Expected<CalibrationError> calibrationError(const std::vector<ConfidenceOutcome>& outcomes,
                                            int bins = kReliabilityBins);

}  // namespace ascope
