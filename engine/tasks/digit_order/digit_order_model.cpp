#include "engine/tasks/digit_order/digit_order_model.h"

#include <stdexcept>

#include "engine/models/encoder_stack.h"

namespace ascope {

DigitOrderModelImpl::DigitOrderModelImpl(const DigitOrderConfig& config) : config_(config) {
  if (Status valid = config_.validate(); !valid.ok()) {
    throw std::invalid_argument("digit-order model config: " + valid.error());
  }
  embedding = register_module("embedding", torch::nn::Embedding(kClsId + 1, config_.d_model));
  positions =
      register_module("positions", LearnedPositionEmbedding(config_.length + 1, config_.d_model));
  layers = register_module(
      "layers", makeEncoderStack(config_.layers, TransformerLayerOptions(
                                                     config_.d_model, config_.heads, config_.d_ff)
                                                     .dropout(config_.dropout)
                                                     .activation(Activation::kGelu)
                                                     .norm_first(true)));
  norm =
      register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({config_.d_model})));
  classifier = register_module("classifier", torch::nn::Linear(config_.d_model, 2));
}

at::Tensor DigitOrderModelImpl::forward(const at::Tensor& ids, std::vector<at::Tensor>* attention) {
  at::Tensor x = positions(embedding(ids));                     // (B, T, d)
  x = runEncoderStack(layers, x, AttentionMasks{}, attention);  // (B, T, d)
  return classifier(norm(x.select(1, 0)));                      // (B, 2): the CLS row
}

}  // namespace ascope
