#include "engine/pretrained/bert_model.h"

#include <stdexcept>

#include "engine/models/encoder_stack.h"
#include "engine/pretrained/hf_activation.h"
#include "engine/pretrained/hf_encoder_layer_weights.h"
#include "engine/pretrained/hf_input_checks.h"

namespace ascope {
namespace {

HfEncoderLayerNames bertLayerNames(int64_t index) {
  const std::string p = "bert.encoder.layer." + std::to_string(index) + ".";
  HfEncoderLayerNames names;
  names.query = p + "attention.self.query";
  names.key = p + "attention.self.key";
  names.value = p + "attention.self.value";
  names.attention_output = p + "attention.output.dense";
  names.attention_norm = p + "attention.output.LayerNorm";
  names.intermediate = p + "intermediate.dense";
  names.output = p + "output.dense";
  names.output_norm = p + "output.LayerNorm";
  return names;
}

}  // namespace

BertModelImpl::BertModelImpl(const BertConfig& config) : config_(config) {
  const Status valid = config_.validate();
  if (!valid.ok()) throw std::invalid_argument("BERT config: " + valid.error());
  const int64_t hidden = config_.hidden_size;
  word_embeddings =
      register_module("word_embeddings",
                      torch::nn::Embedding(torch::nn::EmbeddingOptions(config_.vocab_size, hidden)
                                               .padding_idx(config_.pad_token_id)));
  position_embeddings = register_module(
      "position_embeddings", LearnedPositionEmbedding(config_.max_position_embeddings, hidden));
  token_type_embeddings = register_module("token_type_embeddings",
                                          torch::nn::Embedding(config_.type_vocab_size, hidden));
  embedding_norm = register_module(
      "embedding_norm",
      torch::nn::LayerNorm(torch::nn::LayerNormOptions({hidden}).eps(config_.layer_norm_eps)));
  embedding_dropout =
      register_module("embedding_dropout", HashDropout(config_.hidden_dropout_prob));
  // Training differs slightly from transformers, eval mode not at all: EncoderLayer has one
  // dropout rate, for the attention weights (transformers: attention_probs_dropout_prob, equal in
  // the usual configs) and the sublayer outputs, and it also drops inside the feed-forward block.
  layers = register_module(
      "layers", makeEncoderStack(config_.num_hidden_layers,
                                 TransformerLayerOptions(hidden, config_.num_attention_heads,
                                                         config_.intermediate_size)
                                     .dropout(config_.hidden_dropout_prob)
                                     .activation(activationForHiddenAct(config_.hidden_act))
                                     .norm_first(false)
                                     .layer_norm_eps(config_.layer_norm_eps)));
  pooler = register_module("pooler", torch::nn::Linear(hidden, hidden));
  classifier_dropout =
      register_module("classifier_dropout", HashDropout(config_.classifier_dropout));
  classifier = register_module("classifier", torch::nn::Linear(hidden, config_.numLabels()));
}

void BertModelImpl::checkInputs(const Tensor& input_ids, const Tensor& token_type_ids,
                                const Tensor& attention_mask) const {
  requireTokenIds("input_ids", input_ids, config_.vocab_size);
  if (token_type_ids.defined()) {
    requireSameShape("token_type_ids", token_type_ids, "input_ids", input_ids);
    requireTokenIds("token_type_ids", token_type_ids, config_.type_vocab_size);
  }
  if (attention_mask.defined()) {
    requireSameShape("attention_mask", attention_mask, "input_ids", input_ids);
  }
}

Tensor BertModelImpl::forward(const Tensor& input_ids, const Tensor& token_type_ids,
                              const Tensor& attention_mask, std::vector<Tensor>* attention,
                              std::vector<Tensor>* hidden_states) {
  checkInputs(input_ids, token_type_ids, attention_mask);
  const Tensor segments =
      token_type_ids.defined() ? token_type_ids : at::zeros_like(input_ids, at::kLong);
  // Summed in transformers' order (words + segments, then positions): float sums are not
  // associative, and the parity test compares to 1e-5.
  Tensor x =
      word_embeddings(input_ids.to(at::kLong)) + token_type_embeddings(segments.to(at::kLong));
  x = embedding_dropout(embedding_norm(position_embeddings(x)));  // (B, T, hidden)

  AttentionMasks masks;
  if (attention_mask.defined()) masks.key_padding_mask = attention_mask.eq(0);  // (B, T)
  if (attention != nullptr) attention->clear();
  if (hidden_states != nullptr) hidden_states->assign({x});
  for (const auto& module : *layers) {
    Tensor weights;
    x = module->as<EncoderLayer>()->forward(x, masks, attention != nullptr ? &weights : nullptr);
    if (attention != nullptr) attention->push_back(weights);  // (B, H, T, T)
    if (hidden_states != nullptr) hidden_states->push_back(x);
  }
  const Tensor pooled = at::tanh(pooler(x.select(1, 0)));  // (B, hidden): the [CLS] token
  return classifier(classifier_dropout(pooled));           // (B, num_labels)
}

bool BertModelImpl::isIgnoredTensor(const std::string& name) {
  return name == "bert.embeddings.position_ids" || name == "bert.embeddings.token_type_ids";
}

Status BertModelImpl::loadWeights(const TensorMap& tensors, const std::string& source) {
  TensorMapLoader loader(tensors, source);
  for (const auto& [name, tensor] : tensors) {
    if (isIgnoredTensor(name)) loader.skip(name);
  }
  loader.copy("bert.embeddings.word_embeddings.weight", word_embeddings->weight);
  loader.copy("bert.embeddings.position_embeddings.weight", position_embeddings->weight);
  loader.copy("bert.embeddings.token_type_embeddings.weight", token_type_embeddings->weight);
  loadLayerNorm(loader, "bert.embeddings.LayerNorm", embedding_norm);
  for (size_t i = 0; i < layers->size(); ++i) {
    loadEncoderLayer(loader, bertLayerNames(static_cast<int64_t>(i)),
                     EncoderLayer(layers->ptr<EncoderLayerImpl>(i)));
  }
  loadLinear(loader, "bert.pooler.dense", pooler);
  loadLinear(loader, "classifier", classifier);
  return loader.finish();
}

}  // namespace ascope
