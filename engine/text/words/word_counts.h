#pragma once
// How often each word occurs in a tokenizer's training texts, the input of WordVocabulary::fit.
// Fitting reads every word of the training set through add(), so this loop dominates it: a word
// already seen costs one probe of a flat TokenIndex and one increment, and allocates nothing.
// TokenIndex's 32-bit ids and key offsets bound the distinct words to 2^31 and their bytes to 4
// GiB, far above any training set the tasks read.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/text/words/token_index.h"

namespace ascope {

class WordCounts {
 public:
  /// Counts one occurrence of `word`. Inline: fitting calls it once per word.
  void add(std::string_view word) {
    const std::int32_t at = index_.find(word);
    if (at >= 0) {
      ++counts_[static_cast<std::size_t>(at)];
      return;
    }
    index_.insert(word, static_cast<std::int32_t>(words_.size()));
    words_.emplace_back(word);
    counts_.push_back(1);
  }

  /// The distinct words, in the order they were first seen, and how often each was seen.
  const std::vector<std::string>& words() const { return words_; }
  const std::vector<std::size_t>& counts() const { return counts_; }

 private:
  TokenIndex index_;  // word → its position in words_ and counts_
  std::vector<std::string> words_;
  std::vector<std::size_t> counts_;  // counts_[i]: how often words_[i] was seen
};

}  // namespace ascope
