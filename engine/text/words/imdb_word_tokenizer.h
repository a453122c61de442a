#pragma once
// The IMDB word tokenizer of the reference: lowercase, keep [a-z0-9] (everything else separates
// words, see ImdbWordSplitter), a vocabulary of the words seen at least min_freq times in the
// training texts, sorted by count (most frequent first) then by word, with ids from 1. Id 0 is both
// padding and unknown, as in the reference. Saved as JSON in the run folder:
//   {"type": "ImdbWordTokenizer", "version": 1, "min_freq": 2, "words": ["the", "and", …]}
// where "words"[i] has id i + 1; with word pairs of their own (fitPairs), also
//   "pair_min_freq": 2, "pairs": ["not good", …]   (WordPairVocabulary).
#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/text/words/word_pair_vocabulary.h"
#include "engine/text/words/word_vocabulary.h"
#include "engine/vocabulary/datasets.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

class ImdbWordTokenizer {
 public:
  /// Padding and unknown words.
  static constexpr std::int64_t kPadId = 0;
  static constexpr int kDefaultMinFreq = 2;
  static constexpr std::size_t kDefaultMaxLen = 100;

  /// No words: every word is unknown (0).
  ImdbWordTokenizer();

  /// Builds the vocabulary from training texts.
  static ImdbWordTokenizer fit(const std::vector<std::string_view>& texts,
                               int min_freq = kDefaultMinFreq);
  static ImdbWordTokenizer fit(const std::vector<TextSample>& samples,
                               int min_freq = kDefaultMinFreq);

  /// Gives the pairs of neighbouring words seen at least `min_count` times among the first
  /// `max_len` words of the training texts rows of their own (the model's word-pair table).
  void fitPairs(const std::vector<TextSample>& samples, int min_count, std::size_t max_len);
  /// The word pairs with rows; empty unless fitPairs ran or the file had "pairs".
  const WordPairVocabulary& pairs() const { return pairs_; }

  /// The first `max_len` word ids of `text`, padded with 0 to exactly `max_len`.
  std::vector<std::int64_t> encode(std::string_view text,
                                   std::size_t max_len = kDefaultMaxLen) const;
  /// Same, written to out[0..max_len) (e.g. straight into a tensor's buffer).
  void encodeInto(std::string_view text, std::size_t max_len, std::int64_t* out) const;
  /// The words behind encode()'s non-padding positions, for attention labels: at most `max_len`,
  /// unknown words included as written (their id is 0); positions past size() are padding.
  std::vector<std::string> tokens(std::string_view text,
                                  std::size_t max_len = kDefaultMaxLen) const;

  /// Number of ids, padding included: the embedding table's row count.
  std::size_t vocabSize() const { return vocabulary_.size(); }
  /// The id of a (lowercase) word; 0 when it is not in the vocabulary.
  std::int64_t idOf(std::string_view word) const { return vocabulary_.idOf(word); }
  /// The word with `id`; "" for 0 and for ids out of range.
  std::string wordOf(std::int64_t id) const { return vocabulary_.wordOf(id); }
  int minFreq() const { return vocabulary_.minFrequency(); }

  nlohmann::json toJson() const;
  /// Never throws; the error names `name` and what is wrong in the JSON.
  static Expected<ImdbWordTokenizer> fromJson(const nlohmann::json& json, const std::string& name);
  static Expected<ImdbWordTokenizer> fromJsonText(std::string_view text, const std::string& name);
  /// Written atomically (temp file + rename).
  Status save(const std::string& path) const;
  static Expected<ImdbWordTokenizer> load(const std::string& path);

 private:
  explicit ImdbWordTokenizer(WordVocabulary vocabulary, WordPairVocabulary pairs = {});

  WordVocabulary vocabulary_;  // ids from 1: id 0, padding, has no word
  WordPairVocabulary pairs_;   // keys over vocabulary_'s ids
};

}  // namespace ascope
