#include "engine/text/words/whitespace_pre_tokenizer.h"

#include <algorithm>
#include <cstdint>
#include <iterator>

#include "engine/text/unicode/utf8_code_points.h"

namespace ascope {
namespace {

struct Range {
  char32_t first;
  char32_t last;
};

// Non-ASCII code points that are neither \w nor \s (sorted, disjoint).
constexpr Range kSymbolRanges[] = {
    {0x80, 0xA9},     {0xAB, 0xB4},     {0xB6, 0xB9},     {0xBB, 0xBF},     {0xD7, 0xD7},
    {0xF7, 0xF7},     {0x37E, 0x37E},   {0x387, 0x387},   {0x55A, 0x55F},   {0x589, 0x58A},
    {0x5BE, 0x5BE},   {0x5C0, 0x5C0},   {0x5C3, 0x5C3},   {0x5C6, 0x5C6},   {0x5F3, 0x5F4},
    {0x609, 0x60D},   {0x61B, 0x61B},   {0x61D, 0x61F},   {0x66A, 0x66D},   {0x6D4, 0x6D4},
    {0x964, 0x965},   {0x970, 0x970},   {0x200B, 0x200B}, {0x200E, 0x203E}, {0x2041, 0x2053},
    {0x2055, 0x205E}, {0x2060, 0x2070}, {0x2072, 0x207E}, {0x2080, 0x208F}, {0x20A0, 0x20CF},
    {0x2100, 0x215F}, {0x2190, 0x2BFF}, {0x2E00, 0x2E7F}, {0x3001, 0x3004}, {0x3008, 0x3020},
    {0x3030, 0x3030}, {0x3036, 0x3037}, {0x303D, 0x303F}, {0xFE10, 0xFE1F}, {0xFE30, 0xFE32},
    {0xFE35, 0xFE4C}, {0xFE50, 0xFE6B}, {0xFF01, 0xFF0F}, {0xFF1A, 0xFF20}, {0xFF3B, 0xFF3E},
    {0xFF40, 0xFF40}, {0xFF5B, 0xFF65}, {0xFFE0, 0xFFEE}, {0xFFF9, 0xFFFD}, {0x1F000, 0x1FAFF},
};

bool isSpace(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}

bool isWordCharacter(char32_t c) {
  if (c < 0x80) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }
  const auto* range =
      std::upper_bound(std::begin(kSymbolRanges), std::end(kSymbolRanges), c,
                       [](char32_t value, const Range& r) { return value < r.first; });
  return range == std::begin(kSymbolRanges) || c > std::prev(range)->last;
}

char32_t toLower(char32_t c) {
  if (c >= 'A' && c <= 'Z') return c + 32;
  if ((c >= 0xC0 && c <= 0xDE && c != 0xD7) || (c >= 0x391 && c <= 0x3AB && c != 0x3A2) ||
      (c >= 0x410 && c <= 0x42F)) {
    return c + 32;
  }
  if (c >= 0x400 && c <= 0x40F) return c + 80;
  if (c >= 0x100 && c <= 0x17F && c != 0x130 && c != 0x131 && c != 0x138 && c != 0x149 &&
      c != 0x17F) {
    // Latin Extended-A pairs capitals with the next code point: even ones up to U+0137 and from
    // U+014A, odd ones in U+0139..U+0148 and U+0179..U+017E.
    const bool odd_pairs = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
    if (c == 0x178) return 0xFF;
    if ((c % 2 == 1) == odd_pairs) return c + 1;
  }
  return c;
}

/// Decodes one code point at text[i] and advances i; an invalid byte decodes as U+FFFD.
char32_t decodeAt(std::string_view text, std::size_t& i) {
  const auto b0 = static_cast<std::uint8_t>(text[i]);
  int length = b0 < 0x80 ? 1 : b0 >= 0xF0 && b0 <= 0xF4 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC2 ? 2 : 0;
  if (length == 0 || b0 > 0xF4 || text.size() - i < static_cast<std::size_t>(length)) {
    ++i;
    return b0 < 0x80 ? b0 : 0xFFFD;
  }
  char32_t c = length == 1 ? b0 : (b0 & (0x7F >> length));
  for (int k = 1; k < length; ++k) {
    const auto b = static_cast<std::uint8_t>(text[i + static_cast<std::size_t>(k)]);
    if ((b & 0xC0) != 0x80) {
      ++i;
      return 0xFFFD;
    }
    c = (c << 6) | (b & 0x3F);
  }
  i += static_cast<std::size_t>(length);
  return c;
}

enum class Kind { kSpace, kWord, kSymbol };

Kind characterKind(char32_t c) {
  return isSpace(c) ? Kind::kSpace : isWordCharacter(c) ? Kind::kWord : Kind::kSymbol;
}

}  // namespace

std::vector<std::string> WhitespacePreTokenizer::split(std::string_view text, bool lowercase) {
  std::vector<std::string> tokens;
  std::string current;
  Kind current_kind = Kind::kSpace;
  std::size_t i = 0;
  while (i < text.size()) {
    const char32_t c = decodeAt(text, i);
    const Kind kind = characterKind(c);
    if (kind != current_kind && !current.empty()) {
      tokens.push_back(std::move(current));
      current.clear();
    }
    current_kind = kind;
    if (kind != Kind::kSpace) appendUtf8(lowercase ? toLower(c) : c, current);
  }
  if (!current.empty()) tokens.push_back(std::move(current));
  return tokens;
}

}  // namespace ascope
