#pragma once
// The Unicode tables behind bert_unicode.h, generated into bert_unicode_data.cpp by
// scripts/generate_unicode_tables.py from Python's unicodedata, so that the C++ tokenizer agrees
// with Hugging Face's Python one on every code point of that Unicode version.
#include <cstddef>
#include <cstdint>

namespace ascope::bert_unicode_data {

/// Property bits of kPropertyRanges.
inline constexpr std::uint32_t kControl = 1;     ///< category C*, except tab, newline, return
inline constexpr std::uint32_t kWhitespace = 2;  ///< str.isspace() or category Zs
inline constexpr std::uint32_t kPunctuation =
    4;  ///< ASCII symbols 33–47, 58–64, 91–96, 123–126, P*
inline constexpr std::uint32_t kNonspacingMark = 8;  ///< category Mn

/// The property bits of the ASCII characters, the common case, without a search.
extern const std::uint8_t kAsciiProperties[128];

/// Sorted by code point; each entry is (first code point << 4) | property bits, and its range runs
/// up to the next entry's first code point (the last one to U+10FFFF).
extern const std::uint32_t kPropertyRanges[];
extern const std::size_t kPropertyRangeCount;

/// Code points first..last have a canonical combining class of `combining_class`; all others 0.
struct CombiningClassRange {
  char32_t first;
  char32_t last;
  std::uint8_t combining_class;
};
extern const CombiningClassRange kCombiningClassRanges[];
extern const std::size_t kCombiningClassRangeCount;

/// first, first + stride, … (count code points) lowercase to themselves + delta.
struct LowercaseRun {
  char32_t first;
  std::uint16_t count;
  std::uint8_t stride;
  std::int32_t delta;
};
extern const LowercaseRun kLowercaseRuns[];
extern const std::size_t kLowercaseRunCount;

/// The few characters whose lowercase is longer than one code point (İ → i + U+0307).
struct LowercaseExpansion {
  char32_t code_point;
  char32_t lower[3];
  std::uint8_t length;
};
extern const LowercaseExpansion kLowercaseExpansions[];
extern const std::size_t kLowercaseExpansionCount;

/// The full canonical decomposition of `code_point`: kDecompositionCodePoints[offset, +length).
struct Decomposition {
  char32_t code_point;
  std::uint16_t offset;
  std::uint8_t length;
};
extern const Decomposition kDecompositions[];
extern const std::size_t kDecompositionCount;
extern const char32_t kDecompositionCodePoints[];

/// The Unicode version the tables were generated from, e.g. "14.0.0".
extern const char kUnicodeVersion[];

}  // namespace ascope::bert_unicode_data
