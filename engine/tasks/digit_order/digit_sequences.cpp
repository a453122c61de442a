#include "engine/tasks/digit_order/digit_sequences.h"

#include <algorithm>

#include "engine/builtin/seeded_random.h"

namespace ascope {

bool inOrder(const std::vector<int>& digits) {
  return std::is_sorted(digits.begin(), digits.end());
}

std::vector<DigitSequence> generateDigitSequences(int count, int length, std::uint64_t seed) {
  SeededRandom random(seed);
  std::vector<DigitSequence> out;
  out.reserve(static_cast<std::size_t>(std::max(0, count)));
  while (static_cast<int>(out.size()) < count) {
    DigitSequence s;
    for (int i = 0; i < length; ++i) s.digits.push_back(random.between(0, 9));
    const bool ordered = random.chance(1, 2);
    if (ordered) {
      std::sort(s.digits.begin(), s.digits.end());
    } else if (random.chance(4, 5)) {
      // One swap of two different neighbours in an ordered sequence: out of order at one place.
      std::sort(s.digits.begin(), s.digits.end());
      if (s.digits.front() == s.digits.back()) continue;  // all equal: no swap unorders them
      int at = 0;
      do {
        at = random.between(0, length - 2);
      } while (s.digits[at] == s.digits[at + 1]);
      std::swap(s.digits[at], s.digits[at + 1]);
    }
    s.label = inOrder(s.digits) ? 1 : 0;
    out.push_back(std::move(s));
  }
  return out;
}

Expected<std::vector<int>> parseDigits(const std::string& text, int max_length) {
  std::vector<int> digits;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      digits.push_back(c - '0');
    } else if (c != ' ' && c != ',' && c != '\t' && c != '\n' && c != '\r') {
      return Error{std::string("only digits, spaces and commas, got '") + c + "'"};
    }
  }
  if (digits.empty()) return Error{"no digits: type some, e.g. 1 3 3 7"};
  if (static_cast<int>(digits.size()) > max_length) {
    return Error{std::to_string(digits.size()) + " digits: the model reads at most " +
                 std::to_string(max_length)};
  }
  return digits;
}

std::string digitsText(const std::vector<int>& digits) {
  std::string text;
  for (int d : digits) {
    if (!text.empty()) text += ' ';
    text += static_cast<char>('0' + d);
  }
  return text;
}

}  // namespace ascope
