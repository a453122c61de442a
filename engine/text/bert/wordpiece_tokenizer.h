#pragma once
// WordPiece, the subword step of BERT: each word becomes the longest vocabulary token that starts
// it, then the longest continuation token ("##ing") that starts the rest, and so on (greedy
// longest-match-first, as Hugging Face's WordpieceTokenizer and the fast WordPiece model). A word
// that cannot be covered, or is longer than max_input_chars_per_word code points, becomes the
// unknown token as a whole.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/text/words/token_index.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

struct WordPieceSettings {
  std::string unk_token = "[UNK]";
  std::string continuing_subword_prefix = "##";
  std::size_t max_input_chars_per_word = 100;
};

class WordPieceTokenizer {
 public:
  /// Empty; create() makes a usable one.
  WordPieceTokenizer() = default;

  /// `tokens[id]` is the token with that id. Fails (the message starting with `name`) on a
  /// duplicate token or when the unknown token is not among them.
  static Expected<WordPieceTokenizer> create(std::vector<std::string> tokens,
                                             WordPieceSettings settings, const std::string& name);

  /// Appends the ids of the pieces of one word (a basic tokenizer's output, valid UTF-8).
  void appendIds(std::string_view word, std::vector<std::int64_t>& ids) const;
  /// The pieces of one word as tokens: "unaffable" → "un" "##aff" "##able".
  std::vector<std::string> tokenize(std::string_view word) const;

  /// The id of a whole token, or -1.
  std::int64_t idOf(std::string_view token) const;
  /// The token with `id`; the unknown token for ids out of range.
  const std::string& tokenOf(std::int64_t id) const;
  std::int64_t unkId() const { return unk_id_; }
  std::size_t vocabSize() const { return tokens_.size(); }
  const WordPieceSettings& settings() const { return settings_; }

 private:
  std::vector<std::string> tokens_;
  WordPieceSettings settings_;
  // Continuations are keyed without their prefix, so that matching the rest of a word needs no
  // "##" + piece string.
  TokenIndex starts_;
  TokenIndex continuations_;
  std::size_t longest_start_ = 0;         // bytes; no match can be longer
  std::size_t longest_continuation_ = 0;  // bytes, prefix excluded
  std::int64_t unk_id_ = 0;
};

}  // namespace ascope
