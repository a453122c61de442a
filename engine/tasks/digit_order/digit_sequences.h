#pragma once
// The digit-order task's data: sequences of digits, labelled "in order" when no digit is smaller
// than the one before it. Half of a generated set is in order; of the rest, most differ from an
// ordered sequence by one swap of two neighbours, so that telling them apart takes comparing each
// digit with the one before it (what a previous-token head does), and a few are shuffled.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {

struct DigitSequence {
  std::vector<int> digits;  ///< each in 0..9
  int label = 0;            ///< 1 in order, 0 not
};

/// The class names, by label.
inline const std::vector<std::string>& digitOrderClassNames() {
  static const std::vector<std::string> names{"out of order", "in order"};
  return names;
}

/// Whether no digit is smaller than the one before it.
bool inOrder(const std::vector<int>& digits);

/// `count` sequences of `length` digits drawn from `seed` (the same on every machine).
std::vector<DigitSequence> generateDigitSequences(int count, int length, std::uint64_t seed);

/// The digits of `text` ("1 3 3 7", "1337", "1,3,3,7"): every digit counts, spaces and commas
/// separate; anything else, no digit at all, or more than `max_length` digits is an error naming
/// what was wrong.
Expected<std::vector<int>> parseDigits(const std::string& text, int max_length);

/// "1 3 3 7"
std::string digitsText(const std::vector<int>& digits);

}  // namespace ascope
