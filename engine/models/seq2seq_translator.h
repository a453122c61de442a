#pragma once
#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>

#include <vector>

#include "engine/models/translator_config.h"
#include "engine/nn/attention_masks.h"
#include "engine/nn/sinusoidal_positional_encoding.h"

namespace ascope {

using at::Tensor;

/// Per-layer attention weights of one translator forward pass.
struct TranslatorAttention {
  std::vector<Tensor> encoder_self;  ///< per encoder layer (B, H, Ts, Ts)
  std::vector<Tensor> decoder_self;  ///< per decoder layer (B, H, Tt, Tt), causal
  std::vector<Tensor> cross;         ///< per decoder layer (B, H, Tt, Ts)
};

/// The encoder-decoder Transformer of "Attention Is All You Need" with pre-norm residuals:
/// embeddings × √d_model + sinusoidal PE, encoder, decoder, final LayerNorms, projection to the
/// target vocabulary. Xavier-uniform initialisation of every matrix.
class Seq2SeqTranslatorImpl : public torch::nn::Module {
 public:
  explicit Seq2SeqTranslatorImpl(const TranslatorConfig& config);

  /// Shape: source (B, Ts) → memory (B, Ts, d).
  Tensor encode(const Tensor& source, std::vector<Tensor>* attention = nullptr);
  /// Shape: target (B, Tt), memory (B, Ts, d), source (B, Ts) for its padding → (B, Tt, d).
  Tensor decode(const Tensor& target, const Tensor& memory, const Tensor& source,
                TranslatorAttention* attention = nullptr);
  /// Shape: (B, Tt, d) → logits (B, Tt, target_vocab).
  Tensor project(const Tensor& decoded);

  /// Teacher-forced pass. Shape: source (B, Ts), target input (B, Tt) → logits (B, Tt, V).
  Tensor forward(const Tensor& source, const Tensor& target,
                 TranslatorAttention* attention = nullptr);

  /// Greedy decoding of one sentence: source (1, Ts) → target ids, starting after `sos_id`, ending
  /// before `eos_id` or after max_len tokens. Call in eval mode under NoGradGuard.
  std::vector<int64_t> greedyDecode(const Tensor& source, int64_t sos_id, int64_t eos_id,
                                    int64_t max_len);

  /// (seq_len, d_model), for plotting.
  const Tensor& positionMatrix() const { return positional->matrix(); }
  const TranslatorConfig& config() const { return config_; }

  torch::nn::Embedding source_embed{nullptr};
  torch::nn::Embedding target_embed{nullptr};
  SinusoidalPositionalEncoding positional{nullptr};
  torch::nn::ModuleList encoder_layers{nullptr};
  torch::nn::ModuleList decoder_layers{nullptr};
  torch::nn::LayerNorm encoder_norm{nullptr};
  torch::nn::LayerNorm decoder_norm{nullptr};
  torch::nn::Linear projection{nullptr};

 private:
  Tensor embed(torch::nn::Embedding& table, const Tensor& ids);

  TranslatorConfig config_;
};
TORCH_MODULE(Seq2SeqTranslator);

}  // namespace ascope
