#include "engine/models/text_classifier_config.h"

#include <algorithm>
#include <string>

#include "engine/models/model_config_bounds.h"
#include "engine/vocabulary/config_checks.h"

namespace ascope {

Status TextClassifierConfig::validate() const {
  using namespace config_checks;
  using namespace model_config_bounds;
  Status s = firstError(
      {inRange("vocab_size", vocab_size, 2, kMaxVocabulary),
       inRange("max_len", max_len, 1, kMaxSequence),
       inRange("num_classes", num_classes, 2, kMaxClasses),
       inRange("d_model", d_model, 1, kMaxWidth), inRange("heads", heads, 1, kMaxHeads),
       inRange("d_ff", d_ff, 1, kMaxFeedForward), inRange("layers", layers, 1, kMaxLayers),
       probability("dropout", dropout), oneOf("activation", activation, "relu", "gelu"),
       oneOf("positional", positional, "sinusoidal", "learned"),
       inRange("bigram_buckets", bigram_buckets, 0, kMaxVocabulary),
       inRange("word_pairs", word_pairs, 0, kMaxVocabulary)});
  if (!s.ok()) return s;
  if (!(layer_drop >= 0.0 && layer_drop < 1.0)) {
    return Error{"layer_drop must be in [0, 1), got " + std::to_string(layer_drop)};
  }
  if (bigram_buckets > 0 && word_pairs > 0) {
    return Error{"bigram_buckets and word_pairs: one word-pair table, hashed or exact, not both"};
  }
  if (pad_id < 0 || pad_id >= vocab_size) {
    return Error{"pad_id must be in [0, vocab_size), got " + std::to_string(pad_id)};
  }
  return divisible("d_model", d_model, "heads", heads);
}

}  // namespace ascope
