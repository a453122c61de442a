#pragma once
// The batches of one training epoch, shared by the trainer and `bench` so that the benchmark times
// the batches a run trains on. Plain C++ (like seeded_split.h, whose permutation it cuts up).
//
// Length bucketing: a translation batch is padded to its longest pair, so random batches of pairs
// of 5 to 80 tokens spend most of their attention and feed-forward work on padding. Sorting a pool
// of ~50 batches' worth of samples by length before cutting it keeps neighbours of similar length
// together; the pool is drawn from the epoch's permutation and the batch order is shuffled, so the
// epoch stays random where it matters for learning (which samples meet, in which order).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ascope {

/// Batches of a pool that are sorted together when bucketing by length.
inline constexpr int64_t kBatchesPerLengthPool = 50;

/// The training-sample indices of every batch of epoch `epoch`, in training order:
/// ceil(train_size / batch_size) batches, every sample in exactly one of them, every batch but one
/// (the last one without `lengths`) holding exactly batch_size samples.
///  - `lengths` empty: seededPermutation(train_size, seed + epoch) cut into consecutive batches
///    (the trainer's order before bucketing existed, so older runs resume onto the same batches).
///  - `lengths` (one per sample): that permutation cut into pools of kBatchesPerLengthPool
///    batches, each pool stably sorted by length and cut into batches, then the batch order
///    shuffled by a permutation of its own seed.
/// Depends only on its arguments: a resumed run sees the same batches. Throws
/// std::invalid_argument for batch_size < 1, train_size < 0, or a `lengths` of another size.
std::vector<std::vector<int64_t>> epochBatches(int64_t train_size, int64_t batch_size,
                                               std::uint64_t seed, int epoch,
                                               const std::vector<int64_t>& lengths = {});

/// The pool each training sample of epoch `epoch` falls in (0, 1, …: its place in the epoch's
/// permutation over batch_size × kBatchesPerLengthPool). The same with and without lengths: the
/// batches of the first k pools hold the same samples either way, which lets a benchmark time
/// bucketed and unbucketed batches on the very same samples. Throws as epochBatches does.
std::vector<int64_t> epochSamplePools(int64_t train_size, int64_t batch_size, std::uint64_t seed,
                                      int epoch);

}  // namespace ascope
