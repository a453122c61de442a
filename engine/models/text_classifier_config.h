#pragma once
// The sentiment classifier's hyperparameters (plain C++, no LibTorch); the sentiment task stores
// them in config.json under "text".
// Defaults are the reference configuration of the seed documents.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// Sentiment classifier (reference: d_model 64, 2 heads, ff 128, 1 layer, mean pooling).
struct TextClassifierConfig {
  /// Its key in config.json (TrainingConfig::task_settings), the same since the first run folders.
  static constexpr const char* kConfigKey = "text";

  int64_t vocab_size = 20000;  ///< ids 0..vocab_size-1; 0 is padding
  int64_t max_len = 100;       ///< longest input in tokens
  int64_t num_classes = 2;
  int64_t d_model = 64;
  int64_t heads = 2;
  int64_t d_ff = 128;
  int64_t layers = 1;
  double dropout = 0.1;
  int64_t pad_id = 0;
  std::string activation = "relu";
  std::string positional = "sinusoidal";  ///< "sinusoidal" or "learned"
  bool norm_first = false;
  /// 0: none. Else each token's embedding also gets a row of a second table picked by a hash of
  /// the word pair (previous word, this word) into this many buckets: fastText's bigrams, word
  /// order a one-layer classifier cannot learn cheaply. The tokens, and so every attention view,
  /// stay whole words.
  int64_t bigram_buckets = 0;
  /// 0: none. Else the word-pair table has a row for each of this many exact word pairs (the
  /// tokenizer's, TextClassifierImpl::setWordPairs) instead of hashed buckets; filled in from the
  /// tokenizer like vocab_size, never together with bigram_buckets.
  int64_t word_pairs = 0;
  /// Whether the mean the classifier reads keeps the positional encodings added to the tokens.
  /// false: they are taken back out of the residual stream before the mean, so it holds the words,
  /// pairs and what the layers wrote, and not a code of the review's length (the attention still
  /// sees the positions). true for every run made before the setting existed.
  bool positions_in_pool = true;
  /// TransformerLayerOptions::residual_gates for every layer: with norm_first each starts as the
  /// identity, so training starts from the mean of the words and pairs, the bag of words the
  /// model holds (post-norm layers still normalise).
  bool residual_gates = false;
  /// TransformerLayerOptions::drop_path for every layer, in [0, 1).
  double layer_drop = 0.0;

  Status validate() const;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TextClassifierConfig, vocab_size, max_len,
                                                num_classes, d_model, heads, d_ff, layers, dropout,
                                                pad_id, activation, positional, norm_first,
                                                bigram_buckets, word_pairs, positions_in_pool,
                                                residual_gates, layer_drop)

}  // namespace ascope
