#pragma once
// Checks on the inputs of the pretrained models' forward(), throwing std::invalid_argument with a
// message naming the input, as the engine's own models do for bad lengths: an id outside a table
// would otherwise surface as LibTorch's "index out of range in self".
#include <ATen/ATen.h>

namespace ascope {

/// `ids` must be a (B, T) integer tensor (or floats holding whole numbers) with every value in
/// [0, table_size).
void requireTokenIds(const char* what, const at::Tensor& ids, int64_t table_size);

/// `tensor` must have the shape of `reference`.
void requireSameShape(const char* what, const at::Tensor& tensor, const char* reference_name,
                      const at::Tensor& reference);

}  // namespace ascope
