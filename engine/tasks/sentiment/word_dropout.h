#pragma once
// The sentiment task's training-time augmentation: words left out of a review at random, so that
// no single word or word pair can carry a review the model has memorised (what it sees of a review
// changes from epoch to epoch). Validation, test, probes and answers see every word.
#include <ATen/core/Tensor.h>

#include <cstdint>

namespace ascope {

/// (B, T) token ids → the same shape, each id other than `pad_id` replaced by `pad_id` with
/// probability `p`: the word, its position and the word pairs it makes drop out of attention and
/// of the mean (the model masks padding everywhere). Uses the global (per-step seeded) RNG, so a
/// resumed run draws the same; draws for the whole batch over `max_len` columns and takes this
/// thread's BatchShard rows (engine/nn/batch_shard.h) and the first T columns, so a data-parallel
/// rank, whose batch is trimmed to its own longest review, drops what one process would.
at::Tensor dropWords(const at::Tensor& ids, double p, int64_t pad_id, int64_t max_len);

}  // namespace ascope
