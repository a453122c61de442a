#include "engine/train/pending_step_figures.h"

#include <ATen/ops/stack.h>

#include <chrono>
#include <cmath>

#include "engine/device/host_read.h"

namespace ascope {

void PendingStepFigures::add(const StepMetrics& metrics, const at::Tensor& loss,
                             const at::Tensor& correct, const at::Tensor& counted, int64_t samples,
                             double seconds) {
  const at::Tensor figures =
      at::stack({loss.detach().to(at::kDouble).reshape({}), correct.to(at::kDouble).reshape({}),
                 counted.to(at::kDouble).reshape({})});
  pending_.push_back({metrics, figures, samples, seconds});
}

PendingStepFigures::Read PendingStepFigures::read() {
  Read out;
  if (pending_.empty()) return out;
  std::vector<at::Tensor> figures;
  figures.reserve(pending_.size());
  for (const Pending& p : pending_) figures.push_back(p.figures);
  const auto started = std::chrono::steady_clock::now();
  const std::vector<double> values = readToHost(figures);  // loss, correct, counted per step
  // The wait is the device finishing what the steps queued: their time, shared out evenly.
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const double share = waited / static_cast<double>(pending_.size());
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    Step step;
    step.metrics = pending_[i].metrics;
    step.metrics.loss = values[3 * i];
    step.correct = values[3 * i + 1];
    step.counted = values[3 * i + 2];
    step.metrics.accuracy = step.counted > 0 ? step.correct / step.counted : 0;
    step.samples = pending_[i].samples;
    step.seconds = pending_[i].seconds + share;
    if (!std::isfinite(step.metrics.loss) && !out.first_non_finite_step) {
      out.first_non_finite_step = step.metrics.step;
    }
    out.steps.push_back(step);
  }
  pending_.clear();
  return out;
}

}  // namespace ascope
