#pragma once

namespace ascope {

/// Exponential moving average with TensorBoard's debiasing: the first values are not pulled
/// towards zero, so the smoothed curve starts where the raw one starts.
///   acc_n = w * acc_{n-1} + (1 - w) * x_n,   smoothed_n = acc_n / (1 - w^n)
class EmaSmoother {
 public:
  explicit EmaSmoother(double weight = 0.9);

  /// Weight of the past in [0, 1); 0 disables smoothing. Resets the state.
  void setWeight(double weight);
  double weight() const { return weight_; }

  /// Feeds one value and returns the smoothed value. Non-finite inputs are skipped (the previous
  /// smoothed value is returned) so one NaN loss does not poison the whole curve.
  double add(double value);
  void reset();
  double value() const { return last_; }

 private:
  double weight_;
  double accumulator_ = 0.0;
  double weight_power_ = 1.0;  // w^n, kept as a product to avoid pow() per sample
  double last_ = 0.0;
};

}  // namespace ascope
