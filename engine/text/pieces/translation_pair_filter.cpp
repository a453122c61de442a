#include "engine/text/pieces/translation_pair_filter.h"

namespace ascope {

FilteredPairs filterPairsBySeqLen(const std::vector<TranslationPair>& pairs,
                                  const TranslationTokenizer& source_tokenizer,
                                  const TranslationTokenizer& target_tokenizer,
                                  std::size_t seq_len) {
  FilteredPairs result;
  for (const TranslationPair& pair : pairs) {
    const std::size_t source_length = source_tokenizer.length(pair.source);
    const std::size_t target_length = target_tokenizer.length(pair.target);
    if (source_length + 2 <= seq_len && target_length + 2 <= seq_len) {
      result.kept.push_back(pair);
    } else {
      ++result.dropped;
    }
  }
  return result;
}

}  // namespace ascope
