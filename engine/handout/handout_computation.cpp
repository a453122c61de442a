#include "engine/handout/handout_computation.h"

namespace ascope {

ComputationCell strongestCell(const AttentionComputation& c) {
  ComputationCell best;
  float best_weight = 0;
  for (int q = 0; q < c.weights.rows; ++q) {
    int unmasked = 0;
    for (int k = 0; k < c.weights.cols; ++k) unmasked += c.isMasked(q, k) ? 0 : 1;
    if (unmasked < 2) continue;
    for (int k = 0; k < c.weights.cols; ++k) {
      if (c.isMasked(q, k)) continue;
      const float w = c.weights.at(q, k);
      if (best.query < 0 || w > best_weight) best = {q, k}, best_weight = w;
    }
  }
  return best;
}

}  // namespace ascope
