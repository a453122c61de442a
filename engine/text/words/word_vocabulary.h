#pragma once
// The word vocabulary of the word-level tokenizers (IMDB, translation): ids ↔ words, fitted from
// word counts (words seen at least min_frequency times, most frequent first, ties by byte order)
// after a tokenizer's fixed special tokens, and read from and written to the tokenizer's JSON file.
// What differs between the tokenizers (reserved ids, special tokens, the unknown id, the JSON
// file's names and its messages) is a WordVocabularyLayout each of them keeps as a constant.
#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/text/words/token_index.h"
#include "engine/text/words/word_counts.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// What a tokenizer fixes about its vocabulary: where the words sit among the ids, and how its JSON
/// file holds them. The file is an object:
///   {"type": <type>, "version": <version>, <flags>…, <min_frequency_key>: 2, <words_key>: [...]}
/// where <words_key>[i] has id first_id + i (the special tokens included).
struct WordVocabularyLayout {
  /// Ids below it name no word: the IMDB tokenizer's padding 0, which is not in its file.
  std::int64_t first_id = 0;
  /// The words with ids first_id, first_id + 1, …, ahead of the fitted ones; a file must start with
  /// them.
  std::vector<std::string> special_tokens;
  /// What idOf() gives for a word outside the vocabulary.
  std::int64_t unknown_id = 0;
  /// The minimum frequency of a file without one.
  int default_min_frequency = 2;

  /// "type": the tokenizer that wrote the file, and the one file version it reads.
  std::string type;
  int version = 1;
  /// The tokenizer's own true/false fields, which the file must have. fromJson checks them (after
  /// "version", before the minimum frequency, as the tokenizers always did, so a file with several
  /// faults is still named by the same one); the tokenizer reads and writes their values.
  std::vector<std::string> flags;
  std::string min_frequency_key;
  std::string words_key;
  /// For the messages: "word" or "token" ("holds the same word twice"), and what an entry of
  /// words_key must be ("a non-empty string").
  std::string word_noun = "word";
  std::string word_rule = "a non-empty string";
  /// Whether an entry may be a word, beyond being non-empty; nullptr accepts every string.
  bool (*accepts)(std::string_view word) = nullptr;
};

class WordVocabulary {
 public:
  /// No ids at all; the tokenizers start from empty(), which has their special tokens.
  WordVocabulary() = default;

  /// Only the layout's reserved ids and special tokens.
  static WordVocabulary empty(const WordVocabularyLayout& layout, int min_frequency);
  /// The special tokens, then the words counted at least max(min_frequency, 1) times, most frequent
  /// first and ties by byte order. `min_frequency` is kept as given, for the file.
  static WordVocabulary fit(const WordCounts& counts, int min_frequency,
                            const WordVocabularyLayout& layout);

  /// The id of `word`; the unknown id when it is not in the vocabulary.
  std::int64_t idOf(std::string_view word) const;
  /// The word with `id`. An id without one (reserved, or out of range) reads as the unknown id: its
  /// word, or "" when the unknown id is itself reserved.
  const std::string& wordOf(std::int64_t id) const;
  /// Number of ids, reserved ones included: the embedding table's row count.
  std::size_t size() const { return static_cast<std::size_t>(first_id_) + words_.size(); }
  /// The words in id order, from first_id: the special tokens, then the fitted words.
  const std::vector<std::string>& words() const { return words_; }
  std::int64_t unknownId() const { return unknown_id_; }
  int minFrequency() const { return min_frequency_; }

  /// The file's object without the layout's flags, which the tokenizer adds.
  nlohmann::json toJson(const WordVocabularyLayout& layout) const;
  /// Reads a file's object; never throws. The error starts with `name`, then says what is wrong.
  static Expected<WordVocabulary> fromJson(const nlohmann::json& json, const std::string& name,
                                           const WordVocabularyLayout& layout);

 private:
  WordVocabulary(std::vector<std::string> words, int min_frequency,
                 const WordVocabularyLayout& layout);

  std::vector<std::string> words_;  // words_[id - first_id_]
  // Owns copies of the words, unlike a map of views into words_, so the implicit copy is right.
  // Keeps a word's first id when it repeats (fromJson then refuses the file).
  TokenIndex index_;
  std::int64_t first_id_ = 0;
  std::int64_t unknown_id_ = 0;
  int min_frequency_ = 2;
};

}  // namespace ascope
