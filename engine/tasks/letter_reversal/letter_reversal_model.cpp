#include "engine/tasks/letter_reversal/letter_reversal_model.h"

#include <stdexcept>

#include "engine/models/encoder_stack.h"
#include "engine/nn/attention_masks.h"
#include "engine/tasks/letter_reversal/letter_words.h"

namespace ascope {

LetterReversalModelImpl::LetterReversalModelImpl(const LetterReversalConfig& config)
    : config_(config) {
  if (Status valid = config_.validate(); !valid.ok()) {
    throw std::invalid_argument("letter-reversal model config: " + valid.error());
  }
  embedding =
      register_module("embedding", torch::nn::Embedding(kLetterVocabulary, config_.d_model));
  positions = register_module("positions",
                              LearnedPositionEmbedding(config_.max_letters + 1, config_.d_model));
  layers = register_module(
      "layers", makeEncoderStack(config_.layers, TransformerLayerOptions(
                                                     config_.d_model, config_.heads, config_.d_ff)
                                                     .dropout(config_.dropout)
                                                     .activation(Activation::kGelu)
                                                     .norm_first(true)));
  norm =
      register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({config_.d_model})));
  head = register_module("head", torch::nn::Linear(config_.d_model, kLetterVocabulary));
}

at::Tensor LetterReversalModelImpl::forward(const at::Tensor& ids,
                                            std::vector<at::Tensor>* attention) {
  AttentionMasks masks;
  masks.key_padding_mask = keyPaddingMask(ids, kLetterPadId);  // (B, T)
  at::Tensor x = positions(embedding(ids));                    // (B, T, d)
  x = runEncoderStack(layers, x, masks, attention);            // (B, T, d)
  return head(norm(x));                                        // (B, T, 29)
}

}  // namespace ascope
