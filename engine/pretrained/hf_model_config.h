#pragma once
// The settings of a Hugging Face BERT or ViT checkpoint, read from its config.json. Plain C++ (no
// LibTorch), so front ends may show them. A field that config.json leaves out takes the value
// transformers gives it (its BertConfig / ViTConfig defaults); a field that is there must have the
// right type and a value these models can reproduce exactly, else the error names the file, the
// field and the value.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// BertForSequenceClassification's settings.
struct BertConfig {
  int64_t vocab_size = 30522;
  int64_t hidden_size = 768;
  int64_t num_hidden_layers = 12;
  int64_t num_attention_heads = 12;
  int64_t intermediate_size = 3072;
  /// "gelu" (erf), "gelu_new" / "gelu_pytorch_tanh" (tanh approximation) or "relu".
  std::string hidden_act = "gelu";
  double hidden_dropout_prob = 0.1;
  double attention_probs_dropout_prob = 0.1;
  /// The dropout before the classifier: config.json's classifier_dropout, or hidden_dropout_prob
  /// where that is null or absent (as transformers does).
  double classifier_dropout = 0.1;
  int64_t max_position_embeddings = 512;
  int64_t type_vocab_size = 2;
  double layer_norm_eps = 1e-12;
  int64_t pad_token_id = 0;
  /// id2label in id order; its size is the number of classes.
  std::vector<std::string> labels = {"LABEL_0", "LABEL_1"};

  int64_t numLabels() const { return static_cast<int64_t>(labels.size()); }
  /// Sizes in range, heads dividing the width, a supported activation; errors name the field.
  Status validate() const;
};

/// ViTForImageClassification's settings.
struct VitConfig {
  int64_t hidden_size = 768;
  int64_t num_hidden_layers = 12;
  int64_t num_attention_heads = 12;
  int64_t intermediate_size = 3072;
  std::string hidden_act = "gelu";
  double hidden_dropout_prob = 0.0;
  double attention_probs_dropout_prob = 0.0;
  double layer_norm_eps = 1e-12;
  int64_t image_size = 224;
  int64_t patch_size = 16;
  int64_t num_channels = 3;
  /// Whether the query, key and value projections have biases (the output projection always has).
  bool qkv_bias = true;
  std::vector<std::string> labels = {"LABEL_0", "LABEL_1"};

  int64_t numLabels() const { return static_cast<int64_t>(labels.size()); }
  /// Patches per image: (image_size / patch_size)², rounded down as the strided convolution does.
  int64_t numPatches() const;
  Status validate() const;
};

/// Parses config.json text; `source` (the file's path) starts every error message. Checks
/// model_type ("bert"), reads every field it knows and validates the result.
Expected<BertConfig> parseBertConfig(const std::string& json_text, const std::string& source);
/// The same for model_type "vit".
Expected<VitConfig> parseVitConfig(const std::string& json_text, const std::string& source);

/// Reads the regular file `path` (at most 1 MiB) and parses it as above.
Expected<BertConfig> readBertConfig(const std::string& path);
Expected<VitConfig> readVitConfig(const std::string& path);

}  // namespace ascope
