#include "engine/text/words/translation_pair_filter.h"

namespace ascope {

FilteredPairs filterPairsBySeqLen(const std::vector<TranslationPair>& pairs,
                                  const TranslationWordTokenizer& source_tokenizer,
                                  const TranslationWordTokenizer& target_tokenizer,
                                  std::size_t seq_len) {
  FilteredPairs result;
  for (const TranslationPair& pair : pairs) {
    // Only the token count matters, and the pre-tokenizer alone gives it.
    const std::size_t source_length = source_tokenizer.tokens(pair.source).size();
    const std::size_t target_length = target_tokenizer.tokens(pair.target).size();
    if (source_length + 2 <= seq_len && target_length + 2 <= seq_len) {
      result.kept.push_back(pair);
    } else {
      ++result.dropped;
    }
  }
  return result;
}

}  // namespace ascope
