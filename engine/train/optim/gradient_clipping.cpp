#include "engine/train/optim/gradient_clipping.h"

#include <ATen/ops/full.h>
#include <ATen/ops/stack.h>

namespace ascope {

void clipGradientNorm(const std::vector<at::Tensor>& parameters, double max_norm) {
  std::vector<at::Tensor> gradients, norms;
  for (const at::Tensor& p : parameters) {
    if (p.grad().defined()) {
      gradients.push_back(p.grad());
      norms.push_back(p.grad().norm());
    }
  }
  if (gradients.empty()) return;
  const at::Tensor total = norms.size() == 1 ? norms.front() : at::stack(norms).norm();
  // In double, as LibTorch divides the norm it read; never above 1: clipping only shrinks.
  const at::Tensor denominator = total.to(at::kDouble).add(1e-6);
  const at::Tensor scale =
      at::full({}, max_norm, denominator.options()).div(denominator).clamp_max(1.0);
  for (at::Tensor& g : gradients) g.mul_(scale);
}

}  // namespace ascope
