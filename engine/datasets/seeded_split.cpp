#include "engine/datasets/seeded_split.h"

#include <limits>
#include <numeric>
#include <random>

namespace ascope {
namespace {

/// Uniform in [0, bound) without modulo bias; bound > 0.
std::uint64_t uniformBelow(std::mt19937_64& rng, std::uint64_t bound) {
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t limit =
      max - (max % bound + 1) % bound;  // largest multiple of bound, minus 1
  std::uint64_t draw = rng();
  while (draw > limit) draw = rng();
  return draw % bound;
}

}  // namespace

std::vector<std::size_t> seededPermutation(std::size_t n, std::uint64_t seed) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::mt19937_64 rng(seed);
  for (std::size_t i = n; i > 1; --i) {
    const auto j = static_cast<std::size_t>(uniformBelow(rng, i));
    std::swap(order[i - 1], order[j]);
  }
  return order;
}

}  // namespace ascope
