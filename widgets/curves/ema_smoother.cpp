#include "widgets/curves/ema_smoother.h"

#include <algorithm>
#include <cmath>

namespace ascope {

EmaSmoother::EmaSmoother(double weight) : weight_(0.0) {
  setWeight(weight);
}

void EmaSmoother::setWeight(double weight) {
  weight_ = std::clamp(std::isfinite(weight) ? weight : 0.0, 0.0, 0.999);
  reset();
}

double EmaSmoother::add(double value) {
  if (!std::isfinite(value)) return last_;
  accumulator_ = weight_ * accumulator_ + (1.0 - weight_) * value;
  weight_power_ *= weight_;
  const double debias = 1.0 - weight_power_;
  last_ = debias > 0.0 ? accumulator_ / debias : value;
  return last_;
}

void EmaSmoother::reset() {
  accumulator_ = 0.0;
  weight_power_ = 1.0;
  last_ = 0.0;
}

}  // namespace ascope
