#include "engine/models/seq2seq_translator.h"

#include "engine/nn/split_matmul.h"

#include <torch/nn/init.h>

#include <cmath>
#include <stdexcept>

#include "engine/models/encoder_stack.h"
#include "engine/nn/decoder_layer.h"

namespace ascope {

Seq2SeqTranslatorImpl::Seq2SeqTranslatorImpl(const TranslatorConfig& config) : config_(config) {
  const Status valid = config_.validate();
  if (!valid.ok()) throw std::invalid_argument("translator config: " + valid.error());
  Activation activation = Activation::kRelu;
  parseActivation(config_.activation, &activation);
  const auto layer = TransformerLayerOptions(config_.d_model, config_.heads, config_.d_ff)
                         .dropout(config_.dropout)
                         .activation(activation)
                         .norm_first(config_.norm_first);

  source_embed = register_module("source_embed",
                                 torch::nn::Embedding(config_.source_vocab_size, config_.d_model));
  target_embed = register_module("target_embed",
                                 torch::nn::Embedding(config_.target_vocab_size, config_.d_model));
  positional = register_module(
      "positional",
      SinusoidalPositionalEncoding(config_.d_model, config_.seq_len, config_.dropout));
  encoder_layers =
      register_module("encoder_layers", makeEncoderStack(config_.encoder_layers, layer));
  decoder_layers = register_module("decoder_layers", torch::nn::ModuleList());
  for (int64_t i = 0; i < config_.decoder_layers; ++i)
    decoder_layers->push_back(DecoderLayer(layer));
  encoder_norm = register_module("encoder_norm", makeLayerNorm(layer));
  decoder_norm = register_module("decoder_norm", makeLayerNorm(layer));
  projection =
      register_module("projection", torch::nn::Linear(config_.d_model, config_.target_vocab_size));

  // As in the reference implementation: Xavier-uniform for every weight matrix.
  for (auto& p : parameters()) {
    if (p.dim() > 1) torch::nn::init::xavier_uniform_(p);
  }
}

Tensor Seq2SeqTranslatorImpl::embed(torch::nn::Embedding& table, const Tensor& ids) {
  return positional(table(ids) * std::sqrt(static_cast<double>(config_.d_model)));  // (B, T, d)
}

Tensor Seq2SeqTranslatorImpl::encode(const Tensor& source, std::vector<Tensor>* attention) {
  AttentionMasks masks;
  masks.key_padding_mask = source.eq(config_.pad_id);  // (B, Ts)
  Tensor x = runEncoderStack(encoder_layers, embed(source_embed, source), masks, attention);
  return config_.norm_first ? encoder_norm(x) : x;  // (B, Ts, d)
}

Tensor Seq2SeqTranslatorImpl::decode(const Tensor& target, const Tensor& memory,
                                     const Tensor& source, TranslatorAttention* attention) {
  AttentionMasks self_masks;
  self_masks.causal = true;
  self_masks.key_padding_mask = target.eq(config_.pad_id);  // (B, Tt)
  AttentionMasks memory_masks;
  memory_masks.key_padding_mask = source.eq(config_.pad_id);  // (B, Ts)
  if (attention != nullptr) {
    attention->decoder_self.clear();
    attention->cross.clear();
  }
  Tensor x = embed(target_embed, target);  // (B, Tt, d)
  for (const auto& module : *decoder_layers) {
    DecoderAttention weights;
    x = module->as<DecoderLayer>()->forward(x, memory, self_masks, memory_masks,
                                            attention != nullptr ? &weights : nullptr);
    if (attention != nullptr) {
      attention->decoder_self.push_back(weights.self_attention);  // (B, H, Tt, Tt)
      attention->cross.push_back(weights.cross_attention);        // (B, H, Tt, Ts)
    }
  }
  return config_.norm_first ? decoder_norm(x) : x;  // (B, Tt, d)
}

Tensor Seq2SeqTranslatorImpl::project(const Tensor& decoded) {
  // The largest product of the model (d_model × vocabulary per target token).
  return splitLinear(decoded, projection->weight, projection->bias);
}

Tensor Seq2SeqTranslatorImpl::forward(const Tensor& source, const Tensor& target,
                                      TranslatorAttention* attention) {
  const Tensor memory = encode(source, attention != nullptr ? &attention->encoder_self : nullptr);
  return project(decode(target, memory, source, attention));  // (B, Tt, V)
}

std::vector<int64_t> Seq2SeqTranslatorImpl::greedyDecode(const Tensor& source, int64_t sos_id,
                                                         int64_t eos_id, int64_t max_len) {
  const Tensor memory = encode(source);  // (1, Ts, d)
  std::vector<int64_t> ids{sos_id};
  const auto options = torch::TensorOptions().dtype(torch::kLong).device(source.device());
  const int64_t limit = std::min<int64_t>(max_len, config_.seq_len);
  while (static_cast<int64_t>(ids.size()) < limit) {
    const Tensor target = torch::tensor(ids, options).unsqueeze(0);               // (1, t)
    const Tensor logits = project(decode(target, memory, source).select(1, -1));  // (1, V)
    const int64_t next = logits.argmax(-1).item<int64_t>();  // sync point: one per token
    if (next == eos_id) break;
    ids.push_back(next);
  }
  return {ids.begin() + 1, ids.end()};
}

}  // namespace ascope
