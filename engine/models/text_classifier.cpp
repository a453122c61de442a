#include "engine/models/text_classifier.h"

#include <ATen/ops/constant_pad_nd.h>
#include <ATen/ops/searchsorted.h>
#include <ATen/ops/where.h>
#include <ATen/ops/zeros_like.h>
#include <torch/csrc/autograd/grad_mode.h>

#include <stdexcept>
#include <string>

#include "engine/models/encoder_stack.h"
#include "engine/nn/padded_embedding.h"

namespace ascope {
namespace {

/// (B, T) token ids → each position's previous token, padding for the first: the left word of the
/// pair both word-pair tables look up.
Tensor previousTokens(const Tensor& token_ids, int64_t pad_id) {
  return at::constant_pad_nd(token_ids.narrow(1, 0, token_ids.size(1) - 1), {1, 0}, pad_id);
}

}  // namespace

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
                                                     .norm_first(config_.norm_first)
                                                     .residual_gates(config_.residual_gates)
                                                     .drop_path(config_.layer_drop)));
  classifier =
      register_module("classifier", torch::nn::Linear(config_.d_model, config_.num_classes));
  // Registered last and only when asked: a run folder's weights without the table keep their names
  // and order.
  const int64_t pair_rows = config_.bigram_buckets + config_.word_pairs;  // one of them is 0
  if (pair_rows > 0) {
    bigrams = register_module(
        "bigrams", torch::nn::Embedding(
                       torch::nn::EmbeddingOptions(pair_rows + 1, config_.d_model).padding_idx(0)));
    // Zeros: training starts from the words-only model and a pair moves only as far as its
    // gradient takes it (most buckets see few pairs; weight decay keeps those small).
    torch::NoGradGuard no_grad;
    bigrams->weight.zero_();
  }
}

void TextClassifierImpl::setSparseEmbeddingGradient(bool sparse) {
  embedding->options.sparse(sparse);
  if (bigrams) bigrams->options.sparse(sparse);
}

Tensor TextClassifierImpl::bigramRows(const Tensor& token_ids, int64_t pad_id, int64_t buckets) {
  // Knuth's multiplicative constant (2^32 / golden ratio) for the previous id and a smaller odd
  // one for this id spread neighbouring pairs over the buckets; ids are below 10^7
  // (kMaxVocabulary), so the sum stays far inside int64 and is never negative.
  if (token_ids.size(1) == 0) return token_ids.clone();
  const Tensor previous = previousTokens(token_ids, pad_id);
  const Tensor hash =
      (previous * int64_t{2654435761} + token_ids * int64_t{40503}).remainder(buckets) + 1;
  return hash.masked_fill(token_ids.eq(pad_id), 0);
}

Tensor TextClassifierImpl::pairRows(const Tensor& token_ids, int64_t pad_id, const Tensor& keys,
                                    int64_t vocab_size) {
  if (token_ids.size(1) == 0 || keys.numel() == 0) return at::zeros_like(token_ids);
  const Tensor previous = previousTokens(token_ids, pad_id);
  const Tensor wanted = previous * vocab_size + token_ids;  // (B, T) wordPairKey for each
  // The first key not below each wanted one; a hit when it is the wanted key itself.
  const Tensor at = at::searchsorted(keys, wanted).clamp_max(keys.size(0) - 1);  // (B, T)
  const Tensor hit = keys.index_select(0, at.flatten()).view_as(wanted).eq(wanted) &
                     previous.ne(pad_id) & token_ids.ne(pad_id);
  return at::where(hit, at + 1, at::zeros_like(at));
}

void TextClassifierImpl::setWordPairs(const Tensor& keys) {
  if (config_.word_pairs == 0 || keys.dim() != 1 || keys.size(0) != config_.word_pairs ||
      keys.scalar_type() != torch::kLong) {
    throw std::invalid_argument("setWordPairs: " + std::to_string(config_.word_pairs) +
                                " int64 keys expected");
  }
  pair_keys_ = keys.to(embedding->weight.device());
}

Tensor TextClassifierImpl::positionMatrix() const {
  return learned ? learned->matrix() : sinusoidal->matrix();
}

Tensor TextClassifierImpl::forward(const Tensor& token_ids, std::vector<Tensor>* attention) {
  const Tensor padding = token_ids.eq(config_.pad_id);  // (B, T)
  Tensor x = paddedEmbedding(embedding->weight, token_ids, config_.pad_id,
                             embedding->options.sparse());  // (B, T, d)
  if (bigrams) {
    if (config_.word_pairs > 0 && !pair_keys_.defined()) {
      throw std::logic_error("text classifier: word_pairs without setWordPairs");
    }
    const Tensor rows =
        config_.word_pairs > 0
            ? pairRows(token_ids, config_.pad_id, pair_keys_, config_.vocab_size)
            : bigramRows(token_ids, config_.pad_id, config_.bigram_buckets);  // (B, T)
    x = x + paddedEmbedding(bigrams->weight, rows, 0, bigrams->options.sparse());
  }
  x = dropout(learned ? learned(x) : sinusoidal(x));  // (B, T, d)
  AttentionMasks masks;
  masks.key_padding_mask = padding;
  x = runEncoderStack(layers, x, masks, attention);  // (B, T, d)
  if (!config_.positions_in_pool) x = x - positionMatrix().narrow(0, 0, x.size(1)).unsqueeze(0);
  // Mean over real tokens only; an all-padding row (empty review) pools to zeros, not NaN.
  const Tensor weights = padding.logical_not().unsqueeze(-1).to(x.scalar_type());  // (B, T, 1)
  const Tensor pooled = (x * weights).sum(1) / weights.sum(1).clamp_min(1.0);      // (B, d)
  return classifier(pooled);                                                       // (B, classes)
}

}  // namespace ascope
