#pragma once
#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>
#include "engine/nn/hash_dropout.h"

#include <vector>

#include "engine/models/vision_transformer_config.h"
#include "engine/nn/learned_position_embedding.h"

namespace ascope {

using at::Tensor;

/// Vision Transformer: conv patch embedding, a CLS token, learned position embeddings, pre-norm
/// encoder, LayerNorm, linear head on the CLS token. Token 0 is CLS; patch p is token p + 1,
/// patches in row-major order over the image.
class VisionTransformerImpl : public torch::nn::Module {
 public:
  explicit VisionTransformerImpl(const VisionTransformerConfig& config);

  /// Shape: images (B, C, H, W) → logits (B, num_classes). With `attention`, one (B, H, T, T)
  /// tensor per layer, T = 1 + num_patches.
  Tensor forward(const Tensor& images, std::vector<Tensor>* attention = nullptr);

  /// (1 + num_patches, hidden): the learned position embeddings, for plotting.
  Tensor positionMatrix() const { return pos_embed->matrix(); }
  const VisionTransformerConfig& config() const { return config_; }

  torch::nn::Conv2d patch_embed{nullptr};
  Tensor cls_token;
  LearnedPositionEmbedding pos_embed{nullptr};
  HashDropout dropout{nullptr};
  torch::nn::ModuleList layers{nullptr};
  torch::nn::LayerNorm norm{nullptr};
  torch::nn::Linear head{nullptr};

 private:
  VisionTransformerConfig config_;
};
TORCH_MODULE(VisionTransformer);

}  // namespace ascope
