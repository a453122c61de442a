#pragma once
// Built-in translation data: short English phrases and sentences with their Italian translation,
// generated from phrase_grammar.h over the vocabulary in italian_lexicon.h. Adjectives move behind
// the noun, articles agree and pronouns disappear, so the cross-attention is visibly not a
// diagonal.
#include <cstdint>

#include "engine/vocabulary/datasets.h"

namespace ascope {

struct TranslationPhrasesOptions {
  /// Training pairs, all distinct.
  int train_count = 12000;
  /// Validation pairs, distinct and none of them in the training set. In the (theoretical) case
  /// that the grammar runs out of new phrases, validation comes back shorter rather than leak.
  int validation_count = 1000;
  /// The same seed gives identical pairs on every machine.
  std::uint64_t seed = 1;
};

/// Lowercase, single-space separated, no punctuation; English sources have 3 to 10 words.
TranslationDataset generateEnglishItalianPhrases(const TranslationPhrasesOptions& options);

}  // namespace ascope
