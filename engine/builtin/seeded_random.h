#pragma once
// The one source of randomness for the built-in datasets. std::mt19937_64 is fully specified by the
// standard, but std::uniform_int_distribution and friends are not (libstdc++, libc++ and MSVC draw
// different numbers from the same engine), so the distributions here are written out by hand on the
// raw 64-bit output: the same seed gives byte-identical datasets on every machine.
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace ascope {

class SeededRandom {
 public:
  explicit SeededRandom(std::uint64_t seed) : engine_(seed) {}

  /// Raw 64 bits from the engine.
  std::uint64_t bits() { return engine_(); }

  /// Uniform in [0, n); rejection sampling removes the modulo bias. n must be > 0.
  std::uint64_t below(std::uint64_t n);

  /// Uniform integer in [lo, hi], both inclusive; lo <= hi.
  int between(int lo, int hi);

  /// Uniform in [0, 1) from the top 53 bits; exact, so it is the same everywhere.
  double unit();

  /// True with probability `numerator / denominator`; integer odds keep it exact.
  bool chance(std::uint64_t numerator, std::uint64_t denominator) {
    return below(denominator) < numerator;
  }

  /// A uniformly chosen index into a container of `size` elements; size > 0.
  std::size_t index(std::size_t size) { return static_cast<std::size_t>(below(size)); }

  /// A uniformly chosen element; `items` must not be empty.
  template <typename T>
  const T& pick(const std::vector<T>& items) {
    return items[index(items.size())];
  }

  /// Fisher-Yates with our own `below`, since std::shuffle's order is implementation-defined.
  template <typename T>
  void shuffle(std::vector<T>& items) {
    for (std::size_t i = items.size(); i > 1; --i) {
      std::swap(items[i - 1], items[index(i)]);
    }
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace ascope
