#include "engine/models/vision_transformer.h"

#include <torch/nn/init.h>

#include <stdexcept>

#include "engine/models/encoder_stack.h"

namespace ascope {

VisionTransformerImpl::VisionTransformerImpl(const VisionTransformerConfig& config)
    : config_(config) {
  const Status valid = config_.validate();
  if (!valid.ok()) throw std::invalid_argument("ViT config: " + valid.error());
  Activation activation = Activation::kGelu;
  parseActivation(config_.activation, &activation);

  patch_embed = register_module(
      "patch_embed", torch::nn::Conv2d(torch::nn::Conv2dOptions(config_.channels, config_.hidden,
                                                                config_.patch_size)
                                           .stride(config_.patch_size)));
  cls_token = register_parameter("cls_token", torch::zeros({1, 1, config_.hidden}));
  torch::nn::init::normal_(cls_token, 0.0, 0.02);
  pos_embed = register_module("pos_embed",
                              LearnedPositionEmbedding(1 + config_.numPatches(), config_.hidden));
  dropout = register_module("dropout", HashDropout(config_.dropout));
  layers = register_module(
      "layers", makeEncoderStack(config_.layers, TransformerLayerOptions(
                                                     config_.hidden, config_.heads, config_.mlp_dim)
                                                     .dropout(config_.dropout)
                                                     .activation(activation)
                                                     .norm_first(config_.norm_first)));
  norm =
      register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({config_.hidden})));
  head = register_module("head", torch::nn::Linear(config_.hidden, config_.num_classes));
}

Tensor VisionTransformerImpl::forward(const Tensor& images, std::vector<Tensor>* attention) {
  const int64_t batch = images.size(0);
  Tensor x = patch_embed(images);                            // (B, D, H/P, W/P)
  x = x.flatten(2).transpose(1, 2);                          // (B, N, D)
  x = torch::cat({cls_token.expand({batch, 1, -1}), x}, 1);  // (B, 1 + N, D)
  x = dropout(pos_embed(x));
  x = runEncoderStack(layers, x, {}, attention);  // (B, 1 + N, D)
  if (config_.pooling == "mean") {
    x = norm(x.narrow(1, 1, x.size(1) - 1).mean(1));  // (B, D): the patches' mean
  } else {
    x = norm(x.select(1, 0));  // (B, D): the CLS token
  }
  return head(x);  // (B, classes)
}

}  // namespace ascope
