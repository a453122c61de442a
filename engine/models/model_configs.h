#pragma once
// Model hyperparameters as plain structs (no LibTorch), so the GUI can edit and validate them.
// Defaults are the reference configurations of DEVELOPERS.md. Each round-trips to JSON.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "engine/core/expected.h"

namespace ascope {

/// ViT for CIFAR-10 (reference: hidden 256, 12 layers, 8 heads, MLP 1024, patch 4).
struct VisionTransformerConfig {
  int64_t image_size = 32;   ///< square input side in pixels
  int64_t channels = 3;      ///< input channels
  int64_t patch_size = 4;    ///< square patch side; must divide image_size
  int64_t num_classes = 10;  ///< output classes
  int64_t hidden = 256;      ///< model width
  int64_t layers = 12;       ///< encoder layers
  int64_t heads = 8;         ///< attention heads; must divide hidden
  int64_t mlp_dim = 1024;    ///< feed-forward width
  double dropout = 0.0;      ///< dropout in [0, 1)
  std::string activation = "gelu";
  bool norm_first = true;

  int64_t numPatches() const { return (image_size / patch_size) * (image_size / patch_size); }
  Status validate() const;
};

/// Sentiment classifier (reference: d_model 64, 2 heads, ff 128, 1 layer, mean pooling).
struct TextClassifierConfig {
  int64_t vocab_size = 20000;  ///< ids 0..vocab_size-1; 0 is padding
  int64_t max_len = 100;       ///< longest input in tokens
  int64_t num_classes = 2;
  int64_t d_model = 64;
  int64_t heads = 2;
  int64_t d_ff = 128;
  int64_t layers = 1;
  double dropout = 0.1;
  int64_t pad_id = 0;
  std::string activation = "relu";
  std::string positional = "sinusoidal";  ///< "sinusoidal" or "learned"
  bool norm_first = false;

  Status validate() const;
};

/// Encoder-decoder translator (reference: d_model 512, 6+6 layers, 8 heads, d_ff 2048, dropout
/// 0.1, seq_len 350, pre-norm, sinusoidal PE).
struct TranslatorConfig {
  int64_t source_vocab_size = 16000;
  int64_t target_vocab_size = 16000;
  int64_t seq_len = 350;
  int64_t d_model = 512;
  int64_t encoder_layers = 6;
  int64_t decoder_layers = 6;
  int64_t heads = 8;
  int64_t d_ff = 2048;
  double dropout = 0.1;
  int64_t pad_id = 1;  ///< [PAD] of the translation tokenizer
  std::string activation = "relu";
  bool norm_first = true;

  Status validate() const;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(VisionTransformerConfig, image_size, channels,
                                                patch_size, num_classes, hidden, layers, heads,
                                                mlp_dim, dropout, activation, norm_first)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TextClassifierConfig, vocab_size, max_len,
                                                num_classes, d_model, heads, d_ff, layers, dropout,
                                                pad_id, activation, positional, norm_first)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TranslatorConfig, source_vocab_size,
                                                target_vocab_size, seq_len, d_model, encoder_layers,
                                                decoder_layers, heads, d_ff, dropout, pad_id,
                                                activation, norm_first)

}  // namespace ascope
