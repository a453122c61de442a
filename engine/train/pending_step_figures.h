#pragma once
// The steps trained since the device was last read: each step's loss and accuracy counts stay on
// the device, and read() copies all of them at once. On a GPU, the host queues step after step
// without waiting; the curves get their points at the read, a few steps late.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/vocabulary/training_metrics.h"

namespace ascope {

class PendingStepFigures {
 public:
  /// One step read back: its metrics with loss and accuracy filled in, its samples, and the
  /// seconds it took (its share of the read's wait included).
  struct Step {
    StepMetrics metrics;
    int64_t samples = 0;
    double seconds = 0;
    double correct = 0, counted = 0;
  };
  struct Read {
    std::vector<Step> steps;
    /// The first step whose loss is NaN or infinite: the weights after it are not to be kept.
    std::optional<int64_t> first_non_finite_step;
  };

  /// `metrics` without loss and accuracy; `loss`, `correct` and `counted` scalars on one device.
  void add(const StepMetrics& metrics, const at::Tensor& loss, const at::Tensor& correct,
           const at::Tensor& counted, int64_t samples, double seconds);
  bool empty() const { return pending_.empty(); }
  std::size_t size() const { return pending_.size(); }
  /// Every pending step's figures in one copy (one wait for the device); empty afterwards.
  Read read();

 private:
  struct Pending {
    StepMetrics metrics;
    at::Tensor figures;  ///< (3): loss, correct, counted as doubles, on the device
    int64_t samples = 0;
    double seconds = 0;
  };
  std::vector<Pending> pending_;
};

}  // namespace ascope
