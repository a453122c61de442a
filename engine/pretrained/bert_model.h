#pragma once
#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>

#include <string>
#include <vector>

#include "engine/nn/hash_dropout.h"
#include "engine/nn/learned_position_embedding.h"
#include "engine/pretrained/hf_model_config.h"
#include "engine/pretrained/tensor_map_loader.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

using at::Tensor;

/// BERT with a sequence-classification head, computing what transformers'
/// BertForSequenceClassification computes, on the engine's own attention modules: word + position
/// + token-type embeddings, LayerNorm; post-norm encoder layers (EncoderLayer, norm after each
/// residual sum); a tanh pooler on the [CLS] token; a linear classifier. Padding keys are masked
/// out of attention; a padding position's own output is still computed (from the real tokens), as
/// in transformers.
class BertModelImpl : public torch::nn::Module {
 public:
  /// Throws std::invalid_argument for a config that does not validate.
  explicit BertModelImpl(const BertConfig& config);

  /// Shape: input_ids (B, T) integer, T ≤ max_position_embeddings; token_type_ids (B, T) integer
  /// or undefined (all segment 0); attention_mask (B, T), 1 for a token and 0 for padding, or
  /// undefined (no padding) → logits (B, num_labels). With `attention`, one (B, H, T, T) tensor
  /// per layer; with `hidden_states`, num_hidden_layers + 1 tensors (B, T, hidden): the
  /// embeddings, then every layer's output. Throws std::invalid_argument for inputs of the wrong
  /// shape or ids outside their tables.
  Tensor forward(const Tensor& input_ids, const Tensor& token_type_ids = {},
                 const Tensor& attention_mask = {}, std::vector<Tensor>* attention = nullptr,
                 std::vector<Tensor>* hidden_states = nullptr);

  /// Copies a BertForSequenceClassification state_dict (names "bert.…" and "classifier.…", dtype
  /// F32/F16/BF16, any device) into this model. Every weight must be present with its exact
  /// shape and nothing else may be there (bert.embeddings.position_ids and
  /// bert.embeddings.token_type_ids, buffers of constants, are accepted and ignored). The error
  /// lists the problems, each naming the tensor, and starts with `source`. After an error the
  /// model holds a mix of old and new weights: discard it.
  Status loadWeights(const TensorMap& tensors, const std::string& source);

  /// Whether loadWeights ignores the checkpoint tensor `name` (a buffer of constants, possibly
  /// integer): callers that read tensors one by one need not read it.
  static bool isIgnoredTensor(const std::string& name);

  /// (max_position_embeddings, hidden): the learned position embeddings, for plotting.
  Tensor positionMatrix() const { return position_embeddings->matrix(); }
  const BertConfig& config() const { return config_; }

  torch::nn::Embedding word_embeddings{nullptr};
  LearnedPositionEmbedding position_embeddings{nullptr};
  torch::nn::Embedding token_type_embeddings{nullptr};
  torch::nn::LayerNorm embedding_norm{nullptr};
  HashDropout embedding_dropout{nullptr};
  torch::nn::ModuleList layers{nullptr};  ///< EncoderLayer, post-norm
  torch::nn::Linear pooler{nullptr};
  HashDropout classifier_dropout{nullptr};
  torch::nn::Linear classifier{nullptr};

 private:
  void checkInputs(const Tensor& input_ids, const Tensor& token_type_ids,
                   const Tensor& attention_mask) const;

  BertConfig config_;
};
TORCH_MODULE(BertModel);

}  // namespace ascope
