#pragma once
// The character questions BERT's basic tokenizer asks, answered as Python's unicodedata and str
// answer them in Hugging Face's tokenizer (tables in bert_unicode_data.cpp, generated from Python).
#include <cstdint>
#include <string>

#include "engine/text/unicode/bert_unicode_data.h"

namespace ascope::bert_unicode {

/// The property bits of `c` (bert_unicode_data::kControl, kWhitespace, kPunctuation,
/// kNonspacingMark) in one lookup, for loops over every character of a text.
std::uint32_t nonAsciiProperties(char32_t c);
inline std::uint32_t propertiesOf(char32_t c) {
  return c < 128 ? bert_unicode_data::kAsciiProperties[c] : nonAsciiProperties(c);
}

/// Category C* (control, format, surrogate, private use, unassigned), tab/newline/return excluded:
/// what clean_text removes.
bool isControl(char32_t c);
/// A separator for str.split() (category Zs, tab, newline, return, U+2028, U+2029, and the control
/// characters \v \f \x1C–\x1F \x85 that clean_text would otherwise remove first).
bool isWhitespace(char32_t c);
/// Printable ASCII that is not a letter or digit, and category P*.
bool isPunctuation(char32_t c);
/// Category Mn: what stripping accents removes after NFD.
bool isNonspacingMark(char32_t c);
/// The CJK ideograph blocks that BERT splits into single-character words (HF's _is_chinese_char).
bool isChineseCharacter(char32_t c);
/// The canonical combining class (0 for starters).
std::uint8_t combiningClass(char32_t c);

/// Appends Python's `chr(c).lower()`: one code point, or more for U+0130 (i + U+0307).
void appendLowercase(char32_t c, std::u32string& out);
/// Appends the full canonical decomposition of `c` (itself when it has none; Hangul syllables by
/// the Unicode algorithm). NFD is this for every character, then reorderCombiningMarks.
void appendCanonicalDecomposition(char32_t c, std::u32string& out);
/// The canonical ordering step of NFD on text[from..]: each run of non-starters sorted by
/// combining class, stably.
void reorderCombiningMarks(std::u32string& text, std::size_t from = 0);

}  // namespace ascope::bert_unicode
