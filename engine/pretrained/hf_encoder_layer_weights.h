#pragma once
// Where one transformers encoder layer keeps its weights, and their copy into our EncoderLayer.
// BERT and ViT name the same pieces differently; both keep separate query, key and value
// projections, which become the packed in_proj of our MultiHeadAttention (rows [q; k; v], as
// torch::nn::MultiheadAttention lays them out).
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>

#include <string>

#include "engine/nn/encoder_layer.h"
#include "engine/pretrained/tensor_map_loader.h"

namespace ascope {

/// Checkpoint name prefixes (without ".weight" / ".bias") of one layer's parts.
struct HfEncoderLayerNames {
  std::string query, key, value;
  std::string attention_output;  ///< the projection after the heads are merged
  std::string attention_norm;    ///< BERT: after the attention block; ViT: before it
  std::string intermediate;      ///< first feed-forward projection
  std::string output;            ///< second feed-forward projection
  std::string output_norm;       ///< BERT: after the feed-forward block; ViT: before it
};

/// Copies `prefix`.weight and `prefix`.bias into `linear`.
void loadLinear(TensorMapLoader& loader, const std::string& prefix,
                const torch::nn::Linear& linear);

/// Copies `prefix`.weight and `prefix`.bias into `norm`.
void loadLayerNorm(TensorMapLoader& loader, const std::string& prefix,
                   const torch::nn::LayerNorm& norm);

/// Copies a whole layer. Without `qkv_bias` the checkpoint has no query/key/value biases: the
/// packed in_proj_bias is set to zero and frozen, which computes the same.
void loadEncoderLayer(TensorMapLoader& loader, const HfEncoderLayerNames& names,
                      const EncoderLayer& layer, bool qkv_bias = true);

}  // namespace ascope
