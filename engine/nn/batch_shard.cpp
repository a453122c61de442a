#include "engine/nn/batch_shard.h"

#include <algorithm>

namespace ascope {
namespace {

// The shard of the training step running on this thread; the forward of a step runs on the thread
// that called it (intra-op workers only run the kernels it hands them).
thread_local const BatchShard* current = nullptr;

}  // namespace

BatchShard shardOfBatch(int64_t total, int rank, int ranks) {
  const int64_t base = total / ranks, extra = total % ranks;
  BatchShard shard;
  shard.first = rank * base + std::min<int64_t>(rank, extra);
  shard.size = base + (rank < extra ? 1 : 0);
  shard.total = total;
  return shard;
}

BatchShard currentBatchShard(int64_t samples) {
  if (current != nullptr) return *current;
  return {0, samples, samples};
}

BatchShardScope::BatchShardScope(const BatchShard& shard) : previous_(current), shard_(shard) {
  current = &shard_;
}

BatchShardScope::~BatchShardScope() {
  current = previous_;
}

}  // namespace ascope
