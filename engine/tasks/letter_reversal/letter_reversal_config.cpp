#include "engine/tasks/letter_reversal/letter_reversal_config.h"

#include "engine/models/model_config_bounds.h"
#include "engine/models/model_flops.h"
#include "engine/vocabulary/config_checks.h"

namespace ascope {

Status LetterReversalConfig::validate() const {
  using namespace config_checks;
  using namespace model_config_bounds;
  // 3 letters at least: the words are 3 letters or longer.
  Status s = firstError(
      {inRange("max_letters", max_letters, 3, 64), inRange("d_model", d_model, 1, kMaxWidth),
       inRange("heads", heads, 1, kMaxHeads), inRange("d_ff", d_ff, 1, kMaxFeedForward),
       inRange("layers", layers, 1, kMaxLayers), probability("dropout", dropout)});
  if (!s.ok()) return s;
  return divisible("d_model", d_model, "heads", heads);
}

double letterReversalStepFlops(const LetterReversalConfig& c, int64_t batch) {
  const auto d = static_cast<double>(c.d_model);
  const auto tokens = static_cast<double>(c.max_letters + 1);
  const double encoder =
      static_cast<double>(c.layers) * encoderLayerFlops(tokens, d, static_cast<double>(c.d_ff));
  const double head = 2.0 * tokens * d * 29.0;  // a letter (or a mark, PAD) at every position
  return kTrainingFlopsFactor * static_cast<double>(batch) * (encoder + head);
}

}  // namespace ascope
