#pragma once
// Hugging Face tokenizers' `Whitespace` pre-tokenizer, the regex \w+|[^\w\s]+ over Unicode: runs of
// word characters, and runs of characters that are neither word nor space ("Ciao, mondo!" →
// "Ciao" "," "mondo" "!"; "l'uomo" → "l" "'" "uomo"; "..." stays one token).
//
// Unicode classes without the full Unicode tables: \s is the White_Space list; \w is ASCII letters,
// digits and '_', plus every non-ASCII character outside a hand-kept list of punctuation and symbol
// blocks (Latin-1 punctuation, General Punctuation, currency, arrows, math, box drawing, dingbats,
// CJK and full-width punctuation, emoji, and the common Greek, Armenian, Hebrew, Arabic and
// Devanagari punctuation marks). Letters of any script therefore join words, as they do in HF.
// The optional lowercasing covers ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic capitals.
#include <string>
#include <string_view>
#include <vector>

namespace ascope {

class WhitespacePreTokenizer {
 public:
  /// The tokens of `text`; invalid UTF-8 bytes count as symbols.
  static std::vector<std::string> split(std::string_view text, bool lowercase);
};

}  // namespace ascope
