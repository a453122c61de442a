#pragma once
// BERT's basic tokenizer, the step before WordPiece, with the behaviour of Hugging Face's
// BasicTokenizer (transformers/models/bert/tokenization_bert.py) and of the fast tokenizer's
// BertNormalizer + BertPreTokenizer:
//   1. clean: drop NUL, U+FFFD and control/format/unassigned characters (category C*); turn
//      tab, newline, return and space separators (Zs) into spaces;
//   2. put every CJK ideograph (the blocks of HF's _is_chinese_char) into a word of its own;
//   3. split on whitespace;
//   4. per word, unless it is in never_split: lowercase (Python's str.lower(), character by
//      character, as the slow tokenizer's pre-pass does), strip accents (NFD, then drop Mn);
//   5. unless the word is now in never_split: split each punctuation character (printable ASCII
//      that is not a letter or digit, and P*) into a word of its own.
// The Unicode answers come from tables generated from Python's unicodedata (bert_unicode.h).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ascope {

/// The normalizer switches: tokenizer.json's BertNormalizer, or tokenizer_config.json's
/// do_lower_case / strip_accents / tokenize_chinese_chars. Defaults are bert-base-uncased's.
struct BertNormalization {
  bool clean_text = true;
  bool handle_chinese_chars = true;
  bool lowercase = true;
  /// Unset: strip accents exactly when lowercasing, as the original BERT does.
  std::optional<bool> strip_accents;

  bool stripsAccents() const { return strip_accents.value_or(lowercase); }
};

class BertBasicTokenizer {
 public:
  /// Words back to back in one buffer, so that a long text costs a few allocations instead of one
  /// per word: word i is text[i == 0 ? 0 : ends[i - 1], ends[i]).
  struct Words {
    std::string text;
    std::vector<std::size_t> ends;

    std::size_t size() const { return ends.size(); }
    std::string_view operator[](std::size_t i) const {
      const std::size_t begin = i == 0 ? 0 : ends[i - 1];
      return std::string_view(text).substr(begin, ends[i] - begin);
    }
    void clear() {
      text.clear();
      ends.clear();
    }
  };

  /// A word listed in `never_split` as written is kept as written; one listed after lowercasing
  /// and stripping is kept whole in that form (not split at punctuation).
  explicit BertBasicTokenizer(BertNormalization normalization = {},
                              std::vector<std::string> never_split = {});

  /// The words of `text` (HF's BasicTokenizer.tokenize). Bytes that are not UTF-8 read as U+FFFD.
  std::vector<std::string> tokenize(std::string_view text) const;
  /// The same, appended to `words`.
  void appendWords(std::string_view text, Words& words) const;

  bool isNeverSplit(std::string_view word) const;
  const BertNormalization& normalization() const { return normalization_; }
  const std::vector<std::string>& neverSplit() const { return never_split_; }

 private:
  struct Scratch;
  void appendWord(const std::u32string& word, Scratch& scratch, Words& words) const;
  void appendAsciiWord(const std::u32string& word, Words& words) const;

  BertNormalization normalization_;
  std::vector<std::string> never_split_;  // sorted, unique
};

}  // namespace ascope
