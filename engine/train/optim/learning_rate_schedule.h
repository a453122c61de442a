#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "engine/vocabulary/training_config.h"

namespace ascope {

/// Learning rate for optimizer step `step` (0-based) of `total_steps`: linear warm-up to `lr`, then
/// constant or cosine decay to lr × min_lr_ratio.
inline double learningRateAt(const OptimizationConfig& o, int64_t step, int64_t total_steps) {
  if (o.warmup_steps > 0 && step < o.warmup_steps) {
    return o.lr * static_cast<double>(step + 1) / static_cast<double>(o.warmup_steps);
  }
  if (o.schedule != "cosine" || total_steps <= o.warmup_steps) return o.lr;
  const double progress = std::min(1.0, static_cast<double>(step - o.warmup_steps) /
                                            static_cast<double>(total_steps - o.warmup_steps));
  const double floor = o.lr * o.min_lr_ratio;
  return floor + (o.lr - floor) * 0.5 * (1.0 + std::cos(M_PI * progress));
}

}  // namespace ascope
