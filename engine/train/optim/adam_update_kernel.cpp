#include "engine/train/optim/adam_update_kernel.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace ascope {
namespace {

// Large enough that a thread's share is worth waking it for; small parameters stay on one thread.
constexpr int64_t kAdamGrain = 1 << 15;

/// The step's constants, in the float arithmetic of the element loop.
struct AdamCoefficients {
  float b1, b2, one_minus_b1, one_minus_b2, inv_sqrt_bias2, eps, step_size, coupled_decay, shrink;

  explicit AdamCoefficients(const AdamStepScalars& s) {
    const double bias1 = 1.0 - std::pow(s.beta1, static_cast<double>(s.step));
    const double bias2 = 1.0 - std::pow(s.beta2, static_cast<double>(s.step));
    b1 = static_cast<float>(s.beta1);
    b2 = static_cast<float>(s.beta2);
    one_minus_b1 = static_cast<float>(1.0 - s.beta1);
    one_minus_b2 = static_cast<float>(1.0 - s.beta2);
    inv_sqrt_bias2 = static_cast<float>(1.0 / std::sqrt(bias2));
    eps = static_cast<float>(s.eps);
    step_size = static_cast<float>(s.lr / bias1);
    coupled_decay = s.decoupled_weight_decay ? 0.0f : static_cast<float>(s.weight_decay);
    shrink = s.decoupled_weight_decay ? static_cast<float>(1.0 - s.lr * s.weight_decay) : 1.0f;
  }
};

// Built for AVX2 too (chosen at run time where the CPU has it): LibTorch's own kernels are, and
// without it this loop would be slower than the seven passes it replaces.
__attribute__((target_clones("avx2", "default"))) void updateRange(float* __restrict p,
                                                                   const float* __restrict g,
                                                                   float* __restrict m,
                                                                   float* __restrict v, int64_t n,
                                                                   const AdamCoefficients& c) {
  for (int64_t i = 0; i < n; ++i) {
    const float w = p[i] * c.shrink;
    const float grad = g[i] + c.coupled_decay * p[i];
    const float mi = c.b1 * m[i] + c.one_minus_b1 * grad;
    const float vi = c.b2 * v[i] + c.one_minus_b2 * grad * grad;
    m[i] = mi;
    v[i] = vi;
    p[i] = w - c.step_size * mi / (std::sqrt(vi) * c.inv_sqrt_bias2 + c.eps);
  }
}

}  // namespace

void adamUpdate(float* p, const float* g, float* m, float* v, int64_t n, const AdamStepScalars& s) {
  const AdamCoefficients c(s);
  at::parallel_for(0, n, kAdamGrain, [&](int64_t begin, int64_t end) {
    updateRange(p + begin, g + begin, m + begin, v + begin, end - begin, c);
  });
}

void adamUpdateRows(float* p, const float* grad_rows, const int64_t* slot, float* m, float* v,
                    int64_t rows, int64_t cols, const AdamStepScalars& s) {
  const AdamCoefficients c(s);
  const int64_t grain = std::max<int64_t>(1, kAdamGrain / std::max<int64_t>(cols, 1));
  at::parallel_for(0, rows, grain, [&](int64_t begin, int64_t end) {
    const std::vector<float> zeros(static_cast<std::size_t>(cols), 0.0f);
    for (int64_t r = begin; r < end; ++r) {
      const float* g = slot[r] >= 0 ? grad_rows + slot[r] * cols : zeros.data();
      updateRange(p + r * cols, g, m + r * cols, v + r * cols, cols, c);
    }
  });
}

}  // namespace ascope
