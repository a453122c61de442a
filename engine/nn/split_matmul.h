#pragma once
// Matrix products whose rows (or batch entries) are split across LibTorch's intra-op threads,
// each part a single-threaded BLAS call. OpenBLAS is kept to one thread (see
// engine/core/cpu_runtime.h) so that one pool owns the cores; without these, every product would
// run on one core. Splitting along rows needs no reduction, so each part writes its own slice of
// the result and the sum over a row is the same as in one call. Autograd functions: the backward
// products are split the same way. Their gradients have no graph of their own: no double backward
// (create_graph), which training never asks for.
#include <ATen/core/Tensor.h>

namespace ascope {

using at::Tensor;

/// x (…, in) · weightᵀ + bias, weight (out, in), bias (out) or undefined; as at::linear.
Tensor splitLinear(const Tensor& x, const Tensor& weight, const Tensor& bias = {});

/// a (B, …, n, k) · b (B, …, k, m) with equal leading sizes; as at::matmul. Other shapes (and
/// inputs that do not need it) go to at::matmul.
Tensor splitMatmul(const Tensor& a, const Tensor& b);

}  // namespace ascope
