#include "engine/tasks/sentiment/word_dropout.h"

#include <ATen/ops/rand.h>

#include <stdexcept>
#include <string>

#include "engine/nn/batch_shard.h"

namespace ascope {

at::Tensor dropWords(const at::Tensor& ids, double p, int64_t pad_id, int64_t max_len) {
  if (p <= 0.0) return ids;
  const int64_t b = ids.size(0), t = ids.size(1);
  if (t > max_len) {
    throw std::invalid_argument("dropWords: " + std::to_string(t) + " columns, max_len " +
                                std::to_string(max_len));
  }
  const BatchShard shard = currentBatchShard(b);
  // Drawn on the host (the same numbers on every device), used on the ids' device.
  const at::Tensor drawn =
      at::rand({shard.total, max_len}).narrow(0, shard.first, b).narrow(1, 0, t);
  return ids.masked_fill(drawn.lt(p).to(ids.device()), pad_id);
}

}  // namespace ascope
