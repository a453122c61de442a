#include "engine/datasets/epoch_batches.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "engine/datasets/seeded_split.h"

namespace ascope {
namespace {

/// SplitMix64's finaliser: a seed for the batch order that shares no stream with the sample
/// permutation's seed, yet follows from it alone.
std::uint64_t mixed(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

std::vector<std::vector<int64_t>> cut(const std::vector<int64_t>& order, int64_t batch_size) {
  std::vector<std::vector<int64_t>> batches;
  const auto n = static_cast<int64_t>(order.size());
  batches.reserve(static_cast<std::size_t>(n / batch_size + 1));
  for (int64_t start = 0; start < n; start += batch_size) {
    const int64_t end = std::min(n, start + batch_size);
    batches.emplace_back(order.begin() + start, order.begin() + end);
  }
  return batches;
}

void checkSizes(int64_t train_size, int64_t batch_size) {
  if (batch_size < 1) {
    throw std::invalid_argument("batch size must be at least 1, got " + std::to_string(batch_size));
  }
  if (train_size < 0) {
    throw std::invalid_argument("training set size must not be negative, got " +
                                std::to_string(train_size));
  }
}

}  // namespace

std::vector<std::vector<int64_t>> epochBatches(int64_t train_size, int64_t batch_size,
                                               std::uint64_t seed, int epoch,
                                               const std::vector<int64_t>& lengths) {
  checkSizes(train_size, batch_size);
  if (!lengths.empty() && static_cast<int64_t>(lengths.size()) != train_size) {
    throw std::invalid_argument(std::to_string(lengths.size()) + " sample lengths for " +
                                std::to_string(train_size) + " training samples");
  }
  const std::uint64_t epoch_seed = seed + static_cast<std::uint64_t>(epoch);
  const std::vector<std::size_t> permutation =
      seededPermutation(static_cast<std::size_t>(train_size), epoch_seed);
  std::vector<int64_t> order(permutation.begin(), permutation.end());
  if (lengths.empty()) return cut(order, batch_size);

  // Whole pools of whole batches: only the last pool can end in a short batch, so the epoch has
  // as many batches as without bucketing and the trainer's step arithmetic stays the same.
  const int64_t pool = batch_size * kBatchesPerLengthPool;
  for (int64_t start = 0; start < train_size; start += pool) {
    const auto first = order.begin() + start;
    const auto last = order.begin() + std::min(train_size, start + pool);
    std::stable_sort(first, last, [&lengths](int64_t a, int64_t b) {
      return lengths[static_cast<std::size_t>(a)] < lengths[static_cast<std::size_t>(b)];
    });
  }
  const std::vector<std::vector<int64_t>> sorted = cut(order, batch_size);
  std::vector<std::vector<int64_t>> shuffled;
  shuffled.reserve(sorted.size());
  for (std::size_t i : seededPermutation(sorted.size(), mixed(epoch_seed))) {
    shuffled.push_back(sorted[i]);
  }
  return shuffled;
}

std::vector<int64_t> epochSamplePools(int64_t train_size, int64_t batch_size, std::uint64_t seed,
                                      int epoch) {
  checkSizes(train_size, batch_size);
  const std::vector<std::size_t> permutation = seededPermutation(
      static_cast<std::size_t>(train_size), seed + static_cast<std::uint64_t>(epoch));
  const int64_t pool = batch_size * kBatchesPerLengthPool;
  std::vector<int64_t> pools(permutation.size());
  for (std::size_t place = 0; place < permutation.size(); ++place) {
    pools[permutation[place]] = static_cast<int64_t>(place) / pool;
  }
  return pools;
}

}  // namespace ascope
