#pragma once
// The one temperature that makes a classifier's probabilities honest on held-out data (issue 56):
// the T minimising the mean cross-entropy of the true classes of samples at logits / T. Fitted on
// the validation split only: a figure called test must come from data that chose nothing.
// Plain C++, no LibTorch.
#include <vector>

#include "engine/vocabulary/evaluation_report.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

struct TemperatureFit {
  double temperature = 1;
  std::int64_t samples = 0;  ///< samples the fit saw
  double nll_before = 0;     ///< mean cross-entropy at temperature 1
  double nll_after = 0;      ///< … at `temperature`
};

/// The temperature in [kMinTemperature, kMaxTemperature] minimising the mean cross-entropy of
/// `scored` (the samples carrying logits). The loss is convex in 1/T, so a golden-section search
/// over 1/T finds its minimum; T = 1 is kept when nothing found does better. An error when no
/// sample carries logits (not a classifier's split) or the loss is not finite.
Expected<TemperatureFit> fitTemperature(const std::vector<ScoredSample>& scored);

}  // namespace ascope
