#include "engine/builtin/seeded_random.h"

#include <limits>

namespace ascope {

std::uint64_t SeededRandom::below(std::uint64_t n) {
  // Accept only draws below the largest multiple of n, so every residue is equally likely.
  const std::uint64_t limit =
      std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % n;
  std::uint64_t draw = engine_();
  while (draw >= limit) draw = engine_();
  return draw % n;
}

int SeededRandom::between(int lo, int hi) {
  const auto span = static_cast<std::uint64_t>(static_cast<std::int64_t>(hi) - lo) + 1;
  return static_cast<int>(lo + static_cast<std::int64_t>(below(span)));
}

double SeededRandom::unit() {
  constexpr double kTwoToMinus53 = 1.0 / 9007199254740992.0;
  return static_cast<double>(engine_() >> 11) * kTwoToMinus53;
}

}  // namespace ascope
