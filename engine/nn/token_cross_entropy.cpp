#include "engine/nn/token_cross_entropy.h"

#include <ATen/ops/log_softmax.h>
#include <ATen/ops/where.h>
#include <ATen/ops/zeros_like.h>

namespace ascope {

at::Tensor tokenCrossEntropy(const at::Tensor& logits, const at::Tensor& labels, int64_t ignored,
                             double smoothing) {
  const at::Tensor log_p = at::log_softmax(logits, -1);  // (N, V)
  const at::Tensor counted = labels.ne(ignored);         // (N)
  // An ignored label reads column 0, whose loss the mask then drops.
  const at::Tensor picked = at::where(counted, labels, at::zeros_like(labels));
  const at::Tensor nll = log_p.gather(1, picked.unsqueeze(1)).squeeze(1).neg();  // (N)
  at::Tensor loss = nll;
  if (smoothing > 0) loss = nll.mul(1.0 - smoothing).add(log_p.mean(-1).neg().mul(smoothing));
  return loss.mul(counted.to(loss.scalar_type()));
}

}  // namespace ascope
