#include "engine/models/text_classifier.h"

#include <stdexcept>

#include "engine/models/encoder_stack.h"
#include "engine/nn/padded_embedding.h"

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
  const Tensor padding = token_ids.eq(config_.pad_id);                       // (B, T)
  Tensor x = paddedEmbedding(embedding->weight, token_ids, config_.pad_id);  // (B, T, d)
  x = dropout(learned ? learned(x) : sinusoidal(x));                         // (B, T, d)
  AttentionMasks masks;
  masks.key_padding_mask = padding;
  x = runEncoderStack(layers, x, masks, attention);  // (B, T, d)
  // Mean over real tokens only; an all-padding row (empty review) pools to zeros, not NaN.
  const Tensor weights = padding.logical_not().unsqueeze(-1).to(x.scalar_type());  // (B, T, 1)
  const Tensor pooled = (x * weights).sum(1) / weights.sum(1).clamp_min(1.0);      // (B, d)
  return classifier(pooled);                                                       // (B, classes)
}

}  // namespace ascope
