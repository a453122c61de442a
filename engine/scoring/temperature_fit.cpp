#include "engine/scoring/temperature_fit.h"

#include <cmath>

#include "engine/scoring/temperature_scaling.h"
#include "engine/vocabulary/calibration.h"

namespace ascope {

Expected<TemperatureFit> fitTemperature(const std::vector<ScoredSample>& scored) {
  TemperatureFit fit;
  for (const ScoredSample& s : scored) {
    if (!s.logits.empty() && s.true_class >= 0 &&
        s.true_class < static_cast<int>(s.logits.size())) {
      ++fit.samples;
    }
  }
  if (fit.samples == 0) return Error{"no sample carries class logits to fit a temperature to"};
  fit.nll_before = temperedLoss(scored, 1.0);
  if (!std::isfinite(fit.nll_before)) return Error{"the loss at temperature 1 is not finite"};
  // Golden-section search over the inverse temperature: the loss is a log-sum-exp of terms linear
  // in 1/T minus one such term, so convex in 1/T, and one minimum lies in the bracket.
  const double ratio = (std::sqrt(5.0) - 1.0) / 2.0;
  double low = 1.0 / kMaxTemperature;
  double high = 1.0 / kMinTemperature;
  double a = high - ratio * (high - low);
  double b = low + ratio * (high - low);
  double loss_a = temperedLoss(scored, 1.0 / a);
  double loss_b = temperedLoss(scored, 1.0 / b);
  for (int i = 0; i < 100 && high - low > 1e-9; ++i) {
    if (loss_a <= loss_b) {
      high = b;
      b = a;
      loss_b = loss_a;
      a = high - ratio * (high - low);
      loss_a = temperedLoss(scored, 1.0 / a);
    } else {
      low = a;
      a = b;
      loss_a = loss_b;
      b = low + ratio * (high - low);
      loss_b = temperedLoss(scored, 1.0 / b);
    }
  }
  const double inverse = (low + high) / 2.0;
  const double loss = temperedLoss(scored, 1.0 / inverse);
  if (std::isfinite(loss) && loss < fit.nll_before) {
    fit.temperature = 1.0 / inverse;
    fit.nll_after = loss;
  } else {
    fit.nll_after = fit.nll_before;
  }
  return fit;
}

}  // namespace ascope
