#pragma once
// The all-reduce of a data-parallel step: every rank's gradients, packed into a few large flat
// buckets (as DistributedDataParallel does: one collective per ~25 MB, not one per parameter),
// summed over the ranks through JobGroup, and unpacked so that each parameter's gradient is what
// one process training the whole batch computes:
//
//     grad = Σ_r w_r · grad_r / Σ_r w_r
//
// where w_r is the number of items rank r's loss is the mean of (BatchOutcome::counted: samples,
// or target tokens for translation). Shards of different sizes (a batch that does not divide by
// the ranks, an empty shard) and token-weighted losses then come out right.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

namespace ascope {

class JobGroup;

class GradientBuckets {
 public:
  /// `parameters`: those that train (requires_grad), in the same order on every rank.
  explicit GradientBuckets(std::vector<at::Tensor> parameters,
                           int64_t bucket_bytes = int64_t{25} << 20);

  /// After backward. `sums` are summed over the ranks alongside the gradients (in float64), and
  /// sums[0] must be this rank's weight w_r. Afterwards each parameter's gradient is the weighted
  /// mean above (dense; undefined only where no rank had one) and `sums` hold the totals.
  void allReduce(JobGroup& group, std::vector<double>& sums);

  int bucketCount() const { return static_cast<int>(buckets_.size()); }
  /// Bytes of gradients sent per step by each rank (before the collective's own traffic).
  int64_t bytes() const { return bytes_; }

 private:
  struct Bucket {
    std::vector<std::size_t> members;  ///< indices into parameters_
    std::vector<int64_t> offsets;      ///< element offset of each member in `flat`
    at::Tensor flat;
  };
  std::vector<at::Tensor> parameters_;
  std::vector<Bucket> buckets_;
  int64_t bytes_ = 0;
};

}  // namespace ascope
