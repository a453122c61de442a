#include "engine/text/unicode/bert_unicode.h"

#include <algorithm>

namespace ascope::bert_unicode {
namespace {

namespace data = bert_unicode_data;

constexpr char32_t kMaxCodePoint = 0x10FFFF;

// The Unicode standard's algorithmic decomposition of the 11,172 precomposed Hangul syllables.
constexpr char32_t kHangulFirst = 0xAC00;
constexpr char32_t kHangulCount = 11172;
constexpr char32_t kLeadingFirst = 0x1100;
constexpr char32_t kVowelFirst = 0x1161;
constexpr char32_t kTrailingFirst = 0x11A7;
constexpr char32_t kVowelCount = 21;
constexpr char32_t kTrailingCount = 28;

}  // namespace

std::uint32_t nonAsciiProperties(char32_t c) {
  if (c > kMaxCodePoint) return data::kControl;
  const std::uint32_t key = (static_cast<std::uint32_t>(c) << 4) | 0xFu;
  const std::uint32_t* end = data::kPropertyRanges + data::kPropertyRangeCount;
  const std::uint32_t* after = std::upper_bound(data::kPropertyRanges, end, key);
  return after == data::kPropertyRanges ? 0 : (after[-1] & 0xFu);
}

bool isControl(char32_t c) {
  return (propertiesOf(c) & data::kControl) != 0;
}
bool isWhitespace(char32_t c) {
  return (propertiesOf(c) & data::kWhitespace) != 0;
}
bool isPunctuation(char32_t c) {
  return (propertiesOf(c) & data::kPunctuation) != 0;
}
bool isNonspacingMark(char32_t c) {
  return (propertiesOf(c) & data::kNonspacingMark) != 0;
}

bool isChineseCharacter(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
         (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

std::uint8_t combiningClass(char32_t c) {
  if (c < 0x300) return 0;
  const data::CombiningClassRange* begin = data::kCombiningClassRanges;
  const data::CombiningClassRange* end = begin + data::kCombiningClassRangeCount;
  const auto* after = std::upper_bound(
      begin, end, c, [](char32_t v, const data::CombiningClassRange& r) { return v < r.first; });
  if (after == begin || c > after[-1].last) return 0;
  return after[-1].combining_class;
}

void appendLowercase(char32_t c, std::u32string& out) {
  if (c < 128) {
    out.push_back(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
    return;
  }
  const data::LowercaseRun* begin = data::kLowercaseRuns;
  const data::LowercaseRun* end = begin + data::kLowercaseRunCount;
  const auto* after = std::upper_bound(
      begin, end, c, [](char32_t v, const data::LowercaseRun& r) { return v < r.first; });
  if (after != begin) {
    const data::LowercaseRun& run = after[-1];
    const char32_t offset = c - run.first;
    if (offset % run.stride == 0 && offset / run.stride < run.count) {
      out.push_back(static_cast<char32_t>(static_cast<std::int64_t>(c) + run.delta));
      return;
    }
  }
  for (std::size_t i = 0; i < data::kLowercaseExpansionCount; ++i) {
    const data::LowercaseExpansion& e = data::kLowercaseExpansions[i];
    if (e.code_point == c) {
      out.append(e.lower, e.length);
      return;
    }
  }
  out.push_back(c);
}

void appendCanonicalDecomposition(char32_t c, std::u32string& out) {
  if (c < 0xC0) {  // nothing below À decomposes
    out.push_back(c);
    return;
  }
  if (c >= kHangulFirst && c < kHangulFirst + kHangulCount) {
    const char32_t index = c - kHangulFirst;
    out.push_back(kLeadingFirst + index / (kVowelCount * kTrailingCount));
    out.push_back(kVowelFirst + (index % (kVowelCount * kTrailingCount)) / kTrailingCount);
    if (index % kTrailingCount != 0) out.push_back(kTrailingFirst + index % kTrailingCount);
    return;
  }
  const data::Decomposition* begin = data::kDecompositions;
  const data::Decomposition* end = begin + data::kDecompositionCount;
  const auto* found = std::lower_bound(
      begin, end, c, [](const data::Decomposition& d, char32_t v) { return d.code_point < v; });
  if (found == end || found->code_point != c) {
    out.push_back(c);
    return;
  }
  out.append(data::kDecompositionCodePoints + found->offset, found->length);
}

void reorderCombiningMarks(std::u32string& text, std::size_t from) {
  // Insertion sort inside each run of non-starters; runs are a handful of marks long.
  for (std::size_t i = from + 1; i < text.size(); ++i) {
    const std::uint8_t ccc = combiningClass(text[i]);
    if (ccc == 0) continue;
    std::size_t j = i;
    while (j > from) {
      const std::uint8_t before = combiningClass(text[j - 1]);
      if (before <= ccc) break;  // a starter (0) also ends the run
      std::swap(text[j - 1], text[j]);
      --j;
    }
  }
}

}  // namespace ascope::bert_unicode
