#include "engine/text/bert/bert_basic_tokenizer.h"

#include <algorithm>

#include "engine/text/unicode/bert_unicode.h"
#include "engine/text/unicode/utf8_code_points.h"

namespace ascope {

struct BertBasicTokenizer::Scratch {
  std::string utf8;
  std::u32string lowered;
  std::u32string decomposed;
};

BertBasicTokenizer::BertBasicTokenizer(BertNormalization normalization,
                                       std::vector<std::string> never_split)
    : normalization_(normalization), never_split_(std::move(never_split)) {
  std::sort(never_split_.begin(), never_split_.end());
  never_split_.erase(std::unique(never_split_.begin(), never_split_.end()), never_split_.end());
}

bool BertBasicTokenizer::isNeverSplit(std::string_view word) const {
  return std::binary_search(never_split_.begin(), never_split_.end(), word,
                            [](std::string_view a, std::string_view b) { return a < b; });
}

std::vector<std::string> BertBasicTokenizer::tokenize(std::string_view text) const {
  Words words;
  appendWords(text, words);
  std::vector<std::string> out;
  out.reserve(words.size());
  for (std::size_t i = 0; i < words.size(); ++i) out.emplace_back(words[i]);
  return out;
}

void BertBasicTokenizer::appendWords(std::string_view text, Words& words) const {
  std::u32string code_points;
  code_points.reserve(text.size());
  appendCodePoints(text, code_points);

  Scratch scratch;
  std::u32string word;
  const auto flush = [&] {
    if (word.empty()) return;
    appendWord(word, scratch, words);
    word.clear();
  };
  namespace data = bert_unicode_data;
  for (const char32_t c : code_points) {
    const std::uint32_t properties = bert_unicode::propertiesOf(c);
    // Removed characters join their neighbours: "a\x00b" is one word, as in HF.
    if (normalization_.clean_text &&
        (c == 0 || c == 0xFFFD || (properties & data::kControl) != 0)) {
      continue;
    }
    if ((properties & data::kWhitespace) != 0) {
      flush();
    } else if (normalization_.handle_chinese_chars && c >= 0x3400 &&
               bert_unicode::isChineseCharacter(c)) {
      flush();
      word.push_back(c);
      flush();
    } else {
      word.push_back(c);
    }
  }
  flush();
}

void BertBasicTokenizer::appendWord(const std::u32string& word, Scratch& scratch,
                                    Words& words) const {
  // HF looks a word up in never_split twice: as written, and once more after lowercasing and
  // stripping ("[FOO]" is kept whole when never_split has "[foo]").
  const auto kept_whole = [&](const std::u32string& form) {
    if (never_split_.empty()) return false;
    scratch.utf8.clear();
    for (const char32_t c : form) appendUtf8(c, scratch.utf8);
    if (!isNeverSplit(scratch.utf8)) return false;
    words.text += scratch.utf8;
    words.ends.push_back(words.text.size());
    return true;
  };
  if (kept_whole(word)) return;
  const bool ascii = std::all_of(word.begin(), word.end(), [](char32_t c) { return c < 0x80; });
  if (ascii && never_split_.empty()) {
    appendAsciiWord(word, words);
    return;
  }

  const std::u32string* current = &word;
  if (normalization_.lowercase) {
    scratch.lowered.clear();
    for (const char32_t c : word) bert_unicode::appendLowercase(c, scratch.lowered);
    current = &scratch.lowered;
  }
  if (normalization_.stripsAccents()) {
    scratch.decomposed.clear();
    for (const char32_t c : *current) {
      bert_unicode::appendCanonicalDecomposition(c, scratch.decomposed);
    }
    bert_unicode::reorderCombiningMarks(scratch.decomposed);
    scratch.decomposed.erase(std::remove_if(scratch.decomposed.begin(), scratch.decomposed.end(),
                                            bert_unicode::isNonspacingMark),
                             scratch.decomposed.end());
    current = &scratch.decomposed;
  }
  if (current->empty() || kept_whole(*current)) return;

  bool in_word = false;
  for (const char32_t c : *current) {
    if (bert_unicode::isPunctuation(c)) {
      if (in_word) words.ends.push_back(words.text.size());
      appendUtf8(c, words.text);
      words.ends.push_back(words.text.size());
      in_word = false;
    } else {
      appendUtf8(c, words.text);
      in_word = true;
    }
  }
  if (in_word) words.ends.push_back(words.text.size());
}

void BertBasicTokenizer::appendAsciiWord(const std::u32string& word, Words& words) const {
  // ASCII has nothing to decompose and lowercases within A–Z.
  bool in_word = false;
  for (const char32_t c : word) {
    char byte = static_cast<char>(c);
    if ((bert_unicode_data::kAsciiProperties[c] & bert_unicode_data::kPunctuation) != 0) {
      if (in_word) words.ends.push_back(words.text.size());
      words.text.push_back(byte);
      words.ends.push_back(words.text.size());
      in_word = false;
    } else {
      if (normalization_.lowercase && byte >= 'A' && byte <= 'Z') byte += 'a' - 'A';
      words.text.push_back(byte);
      in_word = true;
    }
  }
  if (in_word) words.ends.push_back(words.text.size());
}

}  // namespace ascope
