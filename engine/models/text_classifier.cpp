#include "engine/models/text_classifier.h"

#include <stdexcept>

#include "engine/models/encoder_stack.h"

namespace ascope {

TextClassifierImpl::TextClassifierImpl(const TextClassifierConfig& config) : config_(config) {
  const Status valid = config_.validate();
  if (!valid.ok()) throw std::invalid_argument("text classifier config: " + valid.error());
  Activation activation = Activation::kRelu;
  parseActivation(config_.activation, &activation);

  embedding = register_module(
      "embedding",
      torch::nn::Embedding(torch::nn::EmbeddingOptions(config_.vocab_size, config_.d_model)
                               .padding_idx(config_.pad_id)));
  if (config_.positional == "learned") {
    learned =
        register_module("positional", LearnedPositionEmbedding(config_.max_len, config_.d_model));
  } else {
    sinusoidal = register_module("positional",
                                 SinusoidalPositionalEncoding(config_.d_model, config_.max_len));
  }
  dropout = register_module("dropout", HashDropout(config_.dropout));
  layers = register_module(
      "layers", makeEncoderStack(config_.layers, TransformerLayerOptions(
                                                     config_.d_model, config_.heads, config_.d_ff)
                                                     .dropout(config_.dropout)
                                                     .activation(activation)
                                                     .norm_first(config_.norm_first)));
  classifier =
      register_module("classifier", torch::nn::Linear(config_.d_model, config_.num_classes));
}

Tensor TextClassifierImpl::positionMatrix() const {
  return learned ? learned->matrix() : sinusoidal->matrix();
}

Tensor TextClassifierImpl::forward(const Tensor& token_ids, std::vector<Tensor>* attention) {
  const Tensor padding = token_ids.eq(config_.pad_id);      // (B, T)
  const Tensor keep = padding.logical_not().unsqueeze(-1);  // (B, T, 1)
  // The embedding's rows by index_select, padding zeroed: what the Embedding module computes
  // (its padding row is zero and learns nothing), but its backward is an index_add. LibTorch 2.x's
  // backward of an embedding with a padding index calls nonzero, a wait for the device at every
  // step (counted by TrainingStepSyncs), and on a GPU it reads its segment count back as well.
  const Tensor rows = embedding->weight.index_select(0, token_ids.reshape({-1}));
  Tensor x = rows.view({token_ids.size(0), token_ids.size(1), -1}) * keep.to(rows.scalar_type());
  x = dropout(learned ? learned(x) : sinusoidal(x));  // (B, T, d)
  AttentionMasks masks;
  masks.key_padding_mask = padding;
  x = runEncoderStack(layers, x, masks, attention);  // (B, T, d)
  // Mean over real tokens only; an all-padding row (empty review) pools to zeros, not NaN.
  const Tensor weights = keep.to(x.scalar_type());                             // (B, T, 1)
  const Tensor pooled = (x * weights).sum(1) / weights.sum(1).clamp_min(1.0);  // (B, d)
  return classifier(pooled);                                                   // (B, classes)
}

}  // namespace ascope
