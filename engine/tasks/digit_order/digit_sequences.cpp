#include "engine/tasks/digit_order/digit_sequences.h"

#include <algorithm>
#include <cstdio>

#include "engine/builtin/seeded_random.h"
#include "engine/text/unicode/utf8_code_points.h"

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

namespace {

/// A character of a message: itself with its code point ("'١' (U+0661)"), or only the code point
/// where showing it would break the line or the terminal (control characters, bytes that are not
/// UTF-8, which read as U+FFFD).
std::string described(char32_t c) {
  char code[16];
  std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(c));
  if (c == 0xFFFD) return std::string("a byte that is not UTF-8 text");
  if (c < 0x20 || (c >= 0x7f && c < 0xa0)) return std::string("the control character ") + code;
  std::string shown;
  appendUtf8(c, shown);
  return "'" + shown + "' (" + code + ")";
}

}  // namespace

Expected<std::vector<int>> parseDigits(const std::string& text, int max_length) {
  std::vector<int> digits;
  std::u32string characters;
  appendCodePoints(text, characters);
  for (char32_t c : characters) {
    if (c >= U'0' && c <= U'9') {
      digits.push_back(static_cast<int>(c - U'0'));
    } else if (c != U' ' && c != U',' && c != U'\t' && c != U'\n' && c != U'\r') {
      return Error{"only the digits 0-9, spaces and commas, got " + described(c)};
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
