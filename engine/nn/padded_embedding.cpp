#include "engine/nn/padded_embedding.h"

#include <ATen/ops/embedding.h>
#include <ATen/ops/index_select.h>

#include <vector>

namespace ascope {

at::Tensor paddedEmbedding(const at::Tensor& weight, const at::Tensor& ids, int64_t padding,
                           bool sparse) {
  if (ids.is_cuda()) return paddedEmbeddingByIndexSelect(weight, ids, padding);
  return at::embedding(weight, ids, padding, /*scale_grad_by_freq=*/false, sparse);
}

at::Tensor paddedEmbeddingByIndexSelect(const at::Tensor& weight, const at::Tensor& ids,
                                        int64_t padding) {
  std::vector<int64_t> shape(ids.sizes().begin(), ids.sizes().end());
  shape.push_back(weight.size(1));
  const at::Tensor rows = at::index_select(weight, 0, ids.reshape({-1})).view(shape);
  return rows * ids.ne(padding).unsqueeze(-1).to(weight.scalar_type());
}

}  // namespace ascope
