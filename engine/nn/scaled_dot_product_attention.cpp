#include "engine/nn/scaled_dot_product_attention.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/nn/hash_dropout.h"
#include "engine/nn/split_matmul.h"

namespace ascope {
namespace {

/// Whether a boolean tensor on the host holds a true, read in place: no operator is dispatched,
/// so nothing counts as a wait for a device (engine/device/host_wait_counter.h).
bool anyOnHost(const Tensor& flags) {
  const Tensor dense = flags.contiguous();
  const bool* first = dense.data_ptr<bool>();
  return std::any_of(first, first + dense.numel(), [](bool b) { return b; });
}

}  // namespace

AttentionResult scaledDotProductAttention(const Tensor& q, const Tensor& k, const Tensor& v,
                                          const Tensor& mask, double dropout_p, bool training,
                                          bool need_weights) {
  const double scale = 1.0 / std::sqrt(static_cast<double>(q.size(-1)));
  // Scaling q costs Dh/Tk of scaling the scores.
  Tensor scores = splitMatmul(q * scale, k.transpose(-2, -1));  // (B, H, Tq, Tk)
  if (mask.defined()) {
    // In place: the product's backward needs its inputs, not the scores.
    scores.masked_fill_(mask, -std::numeric_limits<double>::infinity());
  }
  Tensor weights = at::softmax(scores, -1);  // (B, H, Tq, Tk)
  if (mask.defined()) {
    // softmax of a row of -inf is NaN; such a query attends to nothing. Rows with every key
    // blocked are rare (an empty input): on a CPU, where asking costs no device sync, the
    // (B, H, Tq, Tk) fill is skipped when there is none.
    const Tensor row_blocked = mask.all(-1, /*keepdim=*/true);
    if (!row_blocked.device().is_cpu() || anyOnHost(row_blocked)) {
      weights = weights.masked_fill(row_blocked, 0.0);
    }
  }
  const Tensor used =
      (training && dropout_p > 0.0) ? hashDropout(weights, dropout_p, true) : weights;
  Tensor output = splitMatmul(used, v);  // (B, H, Tq, Dv)
  return {output, need_weights ? weights : Tensor()};
}

Tensor fusedScaledDotProductAttention(const Tensor& q, const Tensor& k, const Tensor& v,
                                      const Tensor& mask, double dropout_p, bool training) {
#if TORCH_VERSION_MAJOR >= 2
  const double p = training ? dropout_p : 0.0;
  // The fused kernel draws its dropout from LibTorch's generator in an order of its own. On the
  // CPU the explicit path's hashDropout decides each weight by its sample's place in the whole
  // batch, which is what lets a data-parallel rank drop what one process drops for the same
  // samples (and keeps a run independent of its thread count).
  if (p > 0.0 && q.device().is_cpu()) {
    return scaledDotProductAttention(q, k, v, mask, dropout_p, training, /*need_weights=*/false)
        .output;
  }
  if (!mask.defined()) return at::scaled_dot_product_attention(q, k, v, {}, p);
  // The fused kernel's boolean mask means "may attend", the opposite of ours. Rows with every key
  // blocked would come out NaN there; open them and zero their output, as the explicit path does.
  const Tensor row_blocked = mask.all(-1, /*keepdim=*/true);  // (B|1, H|1, Tq, 1)
  const Tensor allowed = mask.logical_not().logical_or(row_blocked);
  return at::scaled_dot_product_attention(q, k, v, allowed, p).masked_fill(row_blocked, 0.0);
#else
  return scaledDotProductAttention(q, k, v, mask, dropout_p, training, /*need_weights=*/false)
      .output;
#endif
}

}  // namespace ascope
