#pragma once
#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>
#include "engine/nn/hash_dropout.h"

#include <vector>

#include "engine/models/text_classifier_config.h"
#include "engine/nn/learned_position_embedding.h"
#include "engine/nn/sinusoidal_positional_encoding.h"

namespace ascope {

using at::Tensor;

/// Token embedding (+ a word-pair embedding: hashed buckets or exact pairs, when the config asks) +
/// positional encoding + encoder + mean pooling over the non-padding tokens + linear classifier.
/// Padding keys are masked out of attention.
class TextClassifierImpl : public torch::nn::Module {
 public:
  explicit TextClassifierImpl(const TextClassifierConfig& config);

  /// Shape: token_ids (B, T) int64, T ≤ max_len → logits (B, num_classes). With `attention`, one
  /// (B, H, T, T) tensor per layer.
  Tensor forward(const Tensor& token_ids, std::vector<Tensor>* attention = nullptr);

  /// (max_len, d_model): the positional encoding added to the embeddings, for plotting.
  Tensor positionMatrix() const;

  /// The embedding's (and the bigram table's) gradient as the rows a batch used (sparse) instead
  /// of the whole table: a batch of 3,200 tokens touches a few thousand of 40,000+ rows, and the
  /// dense gradient was a table-sized zero fill and sum every step. On a CPU only, for an
  /// optimizer that takes row-sparse gradients (FusedAdam) and no gradient clipping.
  void setSparseEmbeddingGradient(bool sparse);
  const TextClassifierConfig& config() const { return config_; }

  /// (B, T) token ids → (B, T) rows of the bigram table: 0 at padding, else 1 + a hash of the
  /// pair (the previous token, or padding for the first, and this token) modulo the buckets.
  static Tensor bigramRows(const Tensor& token_ids, int64_t pad_id, int64_t buckets);

  /// (B, T) token ids → (B, T) rows of the exact word-pair table: 1 + the index of the key
  /// previous * vocab_size + this in `keys` (ascending int64), 0 at padding, for the first token
  /// and for a pair not in `keys`.
  static Tensor pairRows(const Tensor& token_ids, int64_t pad_id, const Tensor& keys,
                         int64_t vocab_size);
  /// The exact word pairs (config().word_pairs ascending keys, WordPairVocabulary's); a model with
  /// word_pairs needs them before forward. Kept beside the weights, not in them: the tokenizer's
  /// file is where a run keeps its pairs. Call after moving the model to its device.
  void setWordPairs(const Tensor& keys);

  torch::nn::Embedding embedding{nullptr};
  SinusoidalPositionalEncoding sinusoidal{nullptr};  ///< set when positional == "sinusoidal"
  LearnedPositionEmbedding learned{nullptr};         ///< set when positional == "learned"
  HashDropout dropout{nullptr};
  torch::nn::ModuleList layers{nullptr};
  torch::nn::Linear classifier{nullptr};
  /// Set when bigram_buckets or word_pairs > 0; row 0 is padding and pairs without a row.
  torch::nn::Embedding bigrams{nullptr};

 private:
  TextClassifierConfig config_;
  Tensor pair_keys_;  // (word_pairs) int64 ascending, on the model's device
};
TORCH_MODULE(TextClassifier);

}  // namespace ascope
