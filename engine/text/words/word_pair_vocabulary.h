#pragma once
// The word pairs a word-level tokenizer gives rows of their own: every pair of neighbouring known
// words (previous id, this id) seen at least min_count times in the training texts. A pair is one
// int64 key, previous * vocabulary size + this, and the pairs are kept sorted by key, so that the
// model finds a pair's row (1 + its index; row 0 is "no row") by a binary search over the keys.
// Saved inside the tokenizer's JSON file as words, which stay readable and do not depend on how
// the keys are formed:
//   "pair_min_freq": 2, "pairs": ["not good", "waste of", …]
#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/text/words/word_pair_counts.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

class WordPairVocabulary {
 public:
  /// The most pairs kept: the most frequent ones (ties by key) when the texts have more. A row
  /// costs d_model floats in the model and three times that in a resumable checkpoint.
  static constexpr std::size_t kMaxPairs = 1'000'000;

  /// No pairs: nothing has a row.
  WordPairVocabulary() = default;

  /// The pairs counted at least max(min_count, 1) times.
  static WordPairVocabulary fit(const WordPairCounts& counts, int min_count);

  std::size_t size() const { return keys_.size(); }
  bool empty() const { return keys_.empty(); }
  int minCount() const { return min_count_; }
  /// wordPairKey of each pair, ascending: pair i has row i + 1.
  const std::vector<std::int64_t>& keys() const { return keys_; }
  std::int64_t vocabSize() const { return vocab_size_; }

  /// "pair_min_freq" and "pairs" added to `json` (the tokenizer's object); `word_of` names an id.
  void addToJson(nlohmann::json& json,
                 const std::function<std::string(std::int64_t)>& word_of) const;
  /// The pairs of a tokenizer file's object: none when it has no "pairs". Never throws; the error
  /// names `name` and the entry at fault. `id_of` gives a word's id, 0 for an unknown word.
  static Expected<WordPairVocabulary> fromJson(
      const nlohmann::json& json, const std::string& name, std::int64_t vocab_size,
      const std::function<std::int64_t(std::string_view)>& id_of);

 private:
  WordPairVocabulary(std::vector<std::int64_t> keys, int min_count, std::int64_t vocab_size)
      : keys_(std::move(keys)), min_count_(min_count), vocab_size_(vocab_size) {}

  std::vector<std::int64_t> keys_;  // ascending, distinct
  int min_count_ = 0;
  std::int64_t vocab_size_ = 0;
};

}  // namespace ascope
