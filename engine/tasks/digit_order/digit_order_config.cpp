#include "engine/tasks/digit_order/digit_order_config.h"

#include "engine/models/model_config_bounds.h"
#include "engine/models/model_flops.h"
#include "engine/vocabulary/config_checks.h"

namespace ascope {

Status DigitOrderConfig::validate() const {
  using namespace config_checks;
  using namespace model_config_bounds;
  // 2 digits at least: one digit is always in order.
  Status s =
      firstError({inRange("length", length, 2, 64), inRange("d_model", d_model, 1, kMaxWidth),
                  inRange("heads", heads, 1, kMaxHeads), inRange("d_ff", d_ff, 1, kMaxFeedForward),
                  inRange("layers", layers, 1, kMaxLayers), probability("dropout", dropout)});
  if (!s.ok()) return s;
  return divisible("d_model", d_model, "heads", heads);
}

double digitOrderStepFlops(const DigitOrderConfig& c, int64_t batch) {
  const auto d = static_cast<double>(c.d_model);
  const double encoder =
      static_cast<double>(c.layers) *
      encoderLayerFlops(static_cast<double>(c.length + 1), d, static_cast<double>(c.d_ff));
  const double classifier = 2.0 * 2.0 * d;  // two logits from the CLS row
  return kTrainingFlopsFactor * static_cast<double>(batch) * (encoder + classifier);
}

}  // namespace ascope
