#pragma once
// The ViT's hyperparameters (plain C++, no LibTorch); the image classification task stores them in
// config.json under its id, "vit".
// Defaults are the reference configuration of the seed documents.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "engine/vocabulary/expected.h"

namespace ascope {

/// ViT for CIFAR-10 (reference: hidden 256, 12 layers, 8 heads, MLP 1024, patch 4).
struct VisionTransformerConfig {
  /// Its key in config.json (TrainingConfig::task_settings), the same since the first run folders.
  static constexpr const char* kConfigKey = "vit";

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
  /// What the classifier reads: "cls", the CLS token (the seed's), or "mean", the mean of the
  /// patch tokens (global average pooling; the CLS token stays in the sequence for the views).
  std::string pooling = "cls";

  int64_t numPatches() const { return (image_size / patch_size) * (image_size / patch_size); }
  Status validate() const;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(VisionTransformerConfig, image_size, channels,
                                                patch_size, num_classes, hidden, layers, heads,
                                                mlp_dim, dropout, activation, norm_first, pooling)

}  // namespace ascope
