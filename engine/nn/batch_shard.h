#pragma once
// Which part of a step's batch this process trains. In a data-parallel job every rank trains a
// contiguous slice of each batch (engine/distributed); the random draws of a training forward
// (dropout masks, augmentation) must then be those the sample gets in the whole batch, so that N
// ranks compute what one process computes with the whole batch. Code that draws per sample reads
// the shard of the calling thread; without a BatchShardScope it is the whole batch.
#include <cstdint>

namespace ascope {

struct BatchShard {
  int64_t first = 0;  ///< position of this shard's first sample in the whole batch
  int64_t size = 0;   ///< samples in this shard
  int64_t total = 0;  ///< samples in the whole batch
};

/// The slice of a batch of `total` samples that rank `rank` of `ranks` trains: contiguous, in rank
/// order, sizes differing by at most one (the first `total % ranks` ranks take one more). A rank
/// may get no sample when the batch is smaller than the job.
BatchShard shardOfBatch(int64_t total, int rank, int ranks);

/// The shard set by the innermost BatchShardScope of this thread, else {0, samples, samples}.
BatchShard currentBatchShard(int64_t samples);

/// Sets this thread's shard for its lifetime (a training step's forward).
class BatchShardScope {
 public:
  explicit BatchShardScope(const BatchShard& shard);
  ~BatchShardScope();
  BatchShardScope(const BatchShardScope&) = delete;
  BatchShardScope& operator=(const BatchShardScope&) = delete;

 private:
  const BatchShard* previous_;
  BatchShard shard_;
};

}  // namespace ascope
