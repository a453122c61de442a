#pragma once
#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>

#include <string>
#include <vector>

#include "engine/nn/hash_dropout.h"
#include "engine/nn/learned_position_embedding.h"
#include "engine/pretrained/hf_model_config.h"
#include "engine/pretrained/tensor_map_loader.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

using at::Tensor;

/// Vision Transformer with a classification head, computing what transformers'
/// ViTForImageClassification computes, on the engine's own attention modules: a strided
/// convolution cuts the image into patches, a CLS token goes first, learned position embeddings
/// are added; pre-norm encoder layers (EncoderLayer, norm before each sublayer); a final
/// LayerNorm; a linear classifier on the CLS token. Token 0 is CLS; patch p is token p + 1,
/// patches in row-major order, as in VisionTransformer.
class VitModelImpl : public torch::nn::Module {
 public:
  /// Throws std::invalid_argument for a config that does not validate.
  explicit VitModelImpl(const VitConfig& config);

  /// Shape: pixel_values (B, num_channels, image_size, image_size), already normalised as
  /// preprocessor_config.json says → logits (B, num_labels). With `attention`, one (B, H, T, T)
  /// tensor per layer, T = 1 + num_patches; with `hidden_states`, num_hidden_layers + 1 tensors
  /// (B, T, hidden): the embeddings, then every layer's output (before the final LayerNorm, as
  /// transformers returns them). Throws std::invalid_argument for another input shape.
  Tensor forward(const Tensor& pixel_values, std::vector<Tensor>* attention = nullptr,
                 std::vector<Tensor>* hidden_states = nullptr);

  /// Copies a ViTForImageClassification state_dict (names "vit.…" and "classifier.…", dtype
  /// F32/F16/BF16, any device) into this model. Every weight must be present with its exact
  /// shape and nothing else may be there; the error lists the problems, each naming the tensor,
  /// and starts with `source`. After an error the model holds a mix of old and new weights:
  /// discard it.
  Status loadWeights(const TensorMap& tensors, const std::string& source);

  /// (1 + num_patches, hidden): the learned position embeddings, for plotting.
  Tensor positionMatrix() const { return pos_embed->matrix(); }
  const VitConfig& config() const { return config_; }

  torch::nn::Conv2d patch_embed{nullptr};
  Tensor cls_token;  ///< (1, 1, hidden)
  LearnedPositionEmbedding pos_embed{nullptr};
  HashDropout dropout{nullptr};
  torch::nn::ModuleList layers{nullptr};  ///< EncoderLayer, pre-norm
  torch::nn::LayerNorm norm{nullptr};
  torch::nn::Linear classifier{nullptr};

 private:
  void checkInput(const Tensor& pixel_values) const;

  VitConfig config_;
};
TORCH_MODULE(VitModel);

}  // namespace ascope
