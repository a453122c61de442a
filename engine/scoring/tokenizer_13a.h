#pragma once
// sacreBLEU's default tokenizer, "13a" (mteval-v13a.pl, used by WMT), applied to a raw sentence
// before BLEU counts its words: a few entities unescaped, ASCII symbols set apart, periods and
// commas split from words but not from digits, a dash after a digit split off, whitespace
// collapsed. Apostrophes and hyphens between letters stay, so "l'uomo" is one word to BLEU.
#include <string>
#include <string_view>
#include <vector>

namespace ascope {

/// `line` (UTF-8) tokenized as sacrebleu.tokenizers.tokenizer_13a.Tokenizer13a does after BLEU's
/// rstrip(): the tokens joined by single spaces.
std::string tokenize13a(std::string_view line);

/// The words of `text` as Python's str.split() finds them (any Unicode whitespace separates).
std::vector<std::u32string> splitOnWhitespace(std::u32string_view text);

/// `text` as code points (invalid bytes become U+FFFD, as Python decodes with errors="replace").
std::u32string codePoints(std::string_view text);

}  // namespace ascope
