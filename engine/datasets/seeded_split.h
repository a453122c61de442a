#pragma once
// Reproducible train/held-out splits and epoch orders. The shuffle is our own Fisher-Yates over
// std::mt19937_64 with rejection sampling, because std::shuffle and std::uniform_int_distribution
// differ between standard libraries and the same seed must give the same split everywhere. Plain
// C++ on purpose: the data library has no LibTorch, and the trainer shuffles with this one too.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ascope {

/// A permutation of 0..n-1 determined by `seed` alone (the trainer's order for one epoch, too).
std::vector<std::size_t> seededPermutation(std::size_t n, std::uint64_t seed);

/// Shuffles `items` by `seed`, then puts the first floor(train_fraction * n) into the first vector
/// and the rest into the second — torch.utils.data.random_split with int(0.9 * len) as the
/// reference does it. `train_fraction` is clamped to [0, 1].
template <class T>
std::pair<std::vector<T>, std::vector<T>> seededSplit(std::vector<T> items, double train_fraction,
                                                      std::uint64_t seed) {
  const std::vector<std::size_t> order = seededPermutation(items.size(), seed);
  const double fraction =
      train_fraction < 0.0 ? 0.0 : (train_fraction > 1.0 ? 1.0 : train_fraction);
  const auto n_train = static_cast<std::size_t>(fraction * static_cast<double>(items.size()));
  std::pair<std::vector<T>, std::vector<T>> split;
  split.first.reserve(n_train);
  split.second.reserve(items.size() - n_train);
  for (std::size_t i = 0; i < order.size(); ++i) {
    (i < n_train ? split.first : split.second).push_back(std::move(items[order[i]]));
  }
  return split;
}

}  // namespace ascope
