#pragma once
#include <cstddef>
#include <vector>

#include "engine/text/pieces/translation_tokenizer.h"
#include "engine/vocabulary/datasets.h"

namespace ascope {

/// The pairs that fit a model's sequence length, and how many did not.
struct FilteredPairs {
  std::vector<TranslationPair> kept;
  std::size_t dropped = 0;
};

/// Keeps the pairs whose source and target both satisfy encoded length + 2 <= `seq_len`, so that
/// either side has room for [SOS] and [EOS]; the reference raises "Sentence is too long" on the
/// others, we drop and count them.
FilteredPairs filterPairsBySeqLen(const std::vector<TranslationPair>& pairs,
                                  const TranslationTokenizer& source_tokenizer,
                                  const TranslationTokenizer& target_tokenizer,
                                  std::size_t seq_len);

}  // namespace ascope
