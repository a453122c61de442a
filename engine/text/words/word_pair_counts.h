#pragma once
// How often each pair of neighbouring known words occurs in a tokenizer's training texts, the input
// of WordPairVocabulary::fit. A pair is the key previous * vocabulary size + this (both ids below
// the vocabulary size, so it stays inside int64 for any vocabulary the tokenizers build).
#include <cstdint>
#include <unordered_map>

namespace ascope {

/// The key of the pair (previous, this), both ids below `vocab_size`: what WordPairCounts counts,
/// WordPairVocabulary keeps and reads back, and TextClassifierImpl::pairRows looks up.
inline std::int64_t wordPairKey(std::int64_t previous, std::int64_t id, std::int64_t vocab_size) {
  return previous * vocab_size + id;
}

class WordPairCounts {
 public:
  explicit WordPairCounts(std::int64_t vocab_size) : vocab_size_(vocab_size) {}

  /// Counts the pairs of one text's `n` ids; id 0 (padding, an unknown word) pairs with nothing.
  void add(const std::int64_t* ids, std::int64_t n) {
    for (std::int64_t i = 1; i < n; ++i) {
      if (ids[i - 1] != 0 && ids[i] != 0) ++counts_[wordPairKey(ids[i - 1], ids[i], vocab_size_)];
    }
  }

  std::int64_t vocabSize() const { return vocab_size_; }
  /// key → how often the pair was seen.
  const std::unordered_map<std::int64_t, std::int64_t>& counts() const { return counts_; }

 private:
  std::int64_t vocab_size_;
  std::unordered_map<std::int64_t, std::int64_t> counts_;
};

}  // namespace ascope
