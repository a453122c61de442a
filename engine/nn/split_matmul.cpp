#include "engine/nn/split_matmul.h"

#include <ATen/Parallel.h>
#include <torch/csrc/autograd/custom_function.h>

#include <algorithm>

namespace ascope {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::tensor_list;

// Below this many multiply-adds a product is not worth waking a second thread for.
constexpr int64_t kMinSplitWork = int64_t{1} << 20;

int64_t partsFor(int64_t rows, int64_t work) {
  if (at::in_parallel_region()) return 1;
  const int64_t threads = at::get_num_threads();
  return std::max<int64_t>(1, std::min({threads, rows, work / kMinSplitWork}));
}

bool splittable(const Tensor& t) {
  return t.device().is_cpu() && t.scalar_type() == at::kFloat && !t.is_sparse();
}

/// Runs part(first, count) on `parts` consecutive blocks of [0, total) in parallel.
template <typename Part>
void forEachBlock(int64_t total, int64_t parts, const Part& part) {
  const int64_t block = (total + parts - 1) / parts;
  at::parallel_for(0, parts, 1, [&](int64_t first_part, int64_t last_part) {
    // Grad mode is per thread, and a pool thread's is on: the out= products would refuse inputs
    // that require grad.
    const at::NoGradGuard no_grad;
    for (int64_t p = first_part; p < last_part; ++p) {
      const int64_t first = p * block;
      const int64_t count = std::min(block, total - first);
      if (count > 0) part(first, count);
    }
  });
}

/// out[r0:r1] = a[r0:r1] · b (+ bias) for row blocks in parallel; a (n, k), b (k, m).
void rowSplitMm(const Tensor& a, const Tensor& b, const Tensor& bias, Tensor& out) {
  const int64_t rows = a.size(0);
  const int64_t parts = partsFor(rows, rows * a.size(1) * b.size(1));
  if (parts <= 1) {
    bias.defined() ? at::addmm_out(out, bias, a, b) : at::mm_out(out, a, b);
    return;
  }
  forEachBlock(rows, parts, [&](int64_t first, int64_t count) {
    Tensor slice = out.narrow(0, first, count);
    bias.defined() ? at::addmm_out(slice, bias, a.narrow(0, first, count), b)
                   : at::mm_out(slice, a.narrow(0, first, count), b);
  });
}

/// a (B, …, n, k) · b (B, …, k, m) with the batch dimension 0 split in parallel.
Tensor batchSplitMatmul(const Tensor& a, const Tensor& b) {
  std::vector<int64_t> sizes = a.sizes().vec();
  sizes.back() = b.size(-1);
  Tensor out = at::empty(sizes, a.options());
  const int64_t batch = a.size(0);
  const int64_t per_item = out.numel() / std::max<int64_t>(batch, 1) * a.size(-1);
  const int64_t parts = partsFor(batch, batch * per_item);
  if (parts <= 1) return at::matmul_out(out, a, b);
  forEachBlock(batch, parts, [&](int64_t first, int64_t count) {
    Tensor slice = out.narrow(0, first, count);
    at::matmul_out(slice, a.narrow(0, first, count), b.narrow(0, first, count));
  });
  return out;
}

class SplitLinearFunction : public torch::autograd::Function<SplitLinearFunction> {
 public:
  // The bias is optional: LibTorch 1.13's apply() refuses an undefined tensor argument.
  static Tensor forward(AutogradContext* ctx, const Tensor& x, const Tensor& weight,
                        const c10::optional<Tensor>& maybe_bias) {
    const Tensor bias = maybe_bias.has_value() ? *maybe_bias : Tensor();
    const Tensor rows = x.reshape({-1, x.size(-1)}).contiguous();  // (N, in)
    ctx->save_for_backward({rows, weight});
    ctx->saved_data["has_bias"] = bias.defined();
    std::vector<int64_t> sizes = x.sizes().vec();
    sizes.back() = weight.size(0);
    Tensor out = at::empty({rows.size(0), weight.size(0)}, x.options());
    rowSplitMm(rows, weight.t(), bias, out);
    return out.view(sizes);
  }

  static tensor_list backward(AutogradContext* ctx, tensor_list grads) {
    const auto saved = ctx->get_saved_variables();
    const Tensor& rows = saved[0];                                            // (N, in)
    const Tensor& weight = saved[1];                                          // (out, in)
    const Tensor grad = grads[0].reshape({-1, weight.size(0)}).contiguous();  // (N, out)
    Tensor grad_x, grad_weight, grad_bias;
    if (ctx->needs_input_grad(0)) {
      grad_x = at::empty_like(rows);
      rowSplitMm(grad, weight, {}, grad_x);
      std::vector<int64_t> sizes = grads[0].sizes().vec();
      sizes.back() = weight.size(1);
      grad_x = grad_x.view(sizes);
    }
    if (ctx->needs_input_grad(1)) {
      // (out, in) = gradᵀ · rows: split along the output features, again a row split.
      grad_weight = at::empty_like(weight);
      rowSplitMm(grad.t(), rows, {}, grad_weight);
    }
    if (ctx->saved_data["has_bias"].toBool() && ctx->needs_input_grad(2)) {
      grad_bias = grad.sum(0);
    }
    return {grad_x, grad_weight, grad_bias};
  }
};

class SplitMatmulFunction : public torch::autograd::Function<SplitMatmulFunction> {
 public:
  static Tensor forward(AutogradContext* ctx, const Tensor& a, const Tensor& b) {
    ctx->save_for_backward({a, b});
    return batchSplitMatmul(a, b);
  }

  static tensor_list backward(AutogradContext* ctx, tensor_list grads) {
    const auto saved = ctx->get_saved_variables();
    const Tensor& a = saved[0];
    const Tensor& b = saved[1];
    const Tensor& grad = grads[0];
    Tensor grad_a, grad_b;
    if (ctx->needs_input_grad(0)) grad_a = batchSplitMatmul(grad, b.transpose(-2, -1));
    if (ctx->needs_input_grad(1)) grad_b = batchSplitMatmul(a.transpose(-2, -1), grad);
    return {grad_a, grad_b};
  }
};

}  // namespace

Tensor splitLinear(const Tensor& x, const Tensor& weight, const Tensor& bias) {
  const int64_t rows = x.numel() / std::max<int64_t>(x.size(-1), 1);
  if (!splittable(x) || !splittable(weight) || x.dim() < 1 ||
      partsFor(rows, rows * weight.size(0) * weight.size(1)) <= 1) {
    return at::linear(x, weight, bias);
  }
  return SplitLinearFunction::apply(
      x, weight, bias.defined() ? c10::optional<Tensor>(bias) : c10::optional<Tensor>());
}

Tensor splitMatmul(const Tensor& a, const Tensor& b) {
  if (!splittable(a) || !splittable(b) || a.dim() < 3 || a.dim() != b.dim() ||
      a.size(0) != b.size(0) ||
      a.sizes().slice(0, a.dim() - 2) != b.sizes().slice(0, b.dim() - 2)) {
    return at::matmul(a, b);
  }
  const int64_t work = a.numel() * b.size(-1);
  if (partsFor(a.size(0), work) <= 1) return at::matmul(a, b);
  return SplitMatmulFunction::apply(a, b);
}

}  // namespace ascope
