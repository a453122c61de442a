#pragma once
// The IMDB word tokenizer of the reference: lowercase, keep [a-z0-9] (everything else separates
// words, see ImdbWordSplitter), a vocabulary of the words seen at least min_freq times in the
// training texts, sorted by count (most frequent first) then by word, with ids from 1. Id 0 is both
// padding and unknown, as in the reference. Saved as JSON in the run folder:
//   {"type": "ImdbWordTokenizer", "version": 1, "min_freq": 2, "words": ["the", "and", …]}
// where "words"[i] has id i + 1.
#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/core/expected.h"
#include "engine/data/datasets.h"

namespace ascope {

class ImdbWordTokenizer {
 public:
  /// Padding and unknown words.
  static constexpr std::int64_t kPadId = 0;
  static constexpr int kDefaultMinFreq = 2;
  static constexpr std::size_t kDefaultMaxLen = 100;

  ImdbWordTokenizer() = default;
  ImdbWordTokenizer(const ImdbWordTokenizer& other);
  ImdbWordTokenizer& operator=(const ImdbWordTokenizer& other);
  ImdbWordTokenizer(ImdbWordTokenizer&&) noexcept = default;
  ImdbWordTokenizer& operator=(ImdbWordTokenizer&&) noexcept = default;
  ~ImdbWordTokenizer() = default;

  /// Builds the vocabulary from training texts.
  static ImdbWordTokenizer fit(const std::vector<std::string_view>& texts,
                               int min_freq = kDefaultMinFreq);
  static ImdbWordTokenizer fit(const std::vector<TextSample>& samples,
                               int min_freq = kDefaultMinFreq);

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
  std::size_t vocabSize() const { return words_.size() + 1; }
  /// The id of a (lowercase) word; 0 when it is not in the vocabulary.
  std::int64_t idOf(std::string_view word) const;
  /// The word with `id`; "" for 0 and for ids out of range.
  std::string wordOf(std::int64_t id) const;
  int minFreq() const { return min_freq_; }

  nlohmann::json toJson() const;
  /// Never throws; the error names `name` and what is wrong in the JSON.
  static Expected<ImdbWordTokenizer> fromJson(const nlohmann::json& json, const std::string& name);
  static Expected<ImdbWordTokenizer> fromJsonText(std::string_view text, const std::string& name);
  /// Written atomically (temp file + rename).
  Status save(const std::string& path) const;
  static Expected<ImdbWordTokenizer> load(const std::string& path);

 private:
  ImdbWordTokenizer(std::vector<std::string> words, int min_freq);
  void rebuildIndex();

  std::vector<std::string> words_;                          // words_[id - 1]
  std::unordered_map<std::string_view, std::int64_t> ids_;  // keys view into words_
  int min_freq_ = kDefaultMinFreq;
};

}  // namespace ascope
