#pragma once
// An embedding lookup with a padding index (its row zero, learning nothing) that does not make a
// GPU wait. LibTorch's embedding backward with a padding index calls nonzero in 2.x's CPU kernel
// (no wait on a CPU, and index_select measured no faster there: it stays) and reads a segment
// count back in its CUDA kernel; on a GPU the rows are taken with index_select,
// whose backward is an index_add, and the padding zeroed by a mask.
#include <ATen/core/Tensor.h>

#include <cstdint>

namespace ascope {

/// weight (V, d), ids (…) → (…, d), the row of `padding` read as zeros and given no gradient.
/// `sparse`: on a CPU, the weight's gradient holds only the rows `ids` used (a GPU's is dense).
at::Tensor paddedEmbedding(const at::Tensor& weight, const at::Tensor& ids, int64_t padding,
                           bool sparse = false);

/// The GPU's way, on any device: index_select and a mask. (paddedEmbedding takes it on CUDA; the
/// tests hold it against LibTorch's embedding on the CPU.)
at::Tensor paddedEmbeddingByIndexSelect(const at::Tensor& weight, const at::Tensor& ids,
                                        int64_t padding);

}  // namespace ascope
