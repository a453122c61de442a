#include "engine/pretrained/vit_model.h"

#include <torch/nn/init.h>

#include <sstream>
#include <stdexcept>

#include "engine/models/encoder_stack.h"
#include "engine/pretrained/hf_activation.h"
#include "engine/pretrained/hf_encoder_layer_weights.h"

namespace ascope {
namespace {

HfEncoderLayerNames vitLayerNames(int64_t index) {
  const std::string p = "vit.encoder.layer." + std::to_string(index) + ".";
  HfEncoderLayerNames names;
  names.query = p + "attention.attention.query";
  names.key = p + "attention.attention.key";
  names.value = p + "attention.attention.value";
  names.attention_output = p + "attention.output.dense";
  names.attention_norm = p + "layernorm_before";
  names.intermediate = p + "intermediate.dense";
  names.output = p + "output.dense";
  names.output_norm = p + "layernorm_after";
  return names;
}

}  // namespace

VitModelImpl::VitModelImpl(const VitConfig& config) : config_(config) {
  const Status valid = config_.validate();
  if (!valid.ok()) throw std::invalid_argument("ViT config: " + valid.error());
  const int64_t hidden = config_.hidden_size;
  patch_embed = register_module(
      "patch_embed",
      torch::nn::Conv2d(torch::nn::Conv2dOptions(config_.num_channels, hidden, config_.patch_size)
                            .stride(config_.patch_size)));
  cls_token = register_parameter("cls_token", at::zeros({1, 1, hidden}));
  torch::nn::init::normal_(cls_token, 0.0, 0.02);
  pos_embed =
      register_module("pos_embed", LearnedPositionEmbedding(1 + config_.numPatches(), hidden));
  dropout = register_module("dropout", HashDropout(config_.hidden_dropout_prob));
  // One dropout rate for the whole layer, as in BertModel (see there); ViT checkpoints set both
  // of transformers' rates to 0.
  layers = register_module(
      "layers", makeEncoderStack(config_.num_hidden_layers,
                                 TransformerLayerOptions(hidden, config_.num_attention_heads,
                                                         config_.intermediate_size)
                                     .dropout(config_.hidden_dropout_prob)
                                     .activation(activationForHiddenAct(config_.hidden_act))
                                     .norm_first(true)
                                     .layer_norm_eps(config_.layer_norm_eps)));
  norm = register_module(
      "norm",
      torch::nn::LayerNorm(torch::nn::LayerNormOptions({hidden}).eps(config_.layer_norm_eps)));
  classifier = register_module("classifier", torch::nn::Linear(hidden, config_.numLabels()));
}

void VitModelImpl::checkInput(const Tensor& pixel_values) const {
  const int64_t side = config_.image_size;
  if (pixel_values.defined() && pixel_values.dim() == 4 &&
      pixel_values.size(1) == config_.num_channels && pixel_values.size(2) == side &&
      pixel_values.size(3) == side) {
    return;
  }
  std::ostringstream message;
  message << "pixel_values must have shape (batch, " << config_.num_channels << ", " << side << ", "
          << side << ")";
  if (pixel_values.defined()) message << ", got " << pixel_values.sizes();
  throw std::invalid_argument(message.str());
}

Tensor VitModelImpl::forward(const Tensor& pixel_values, std::vector<Tensor>* attention,
                             std::vector<Tensor>* hidden_states) {
  checkInput(pixel_values);
  const int64_t batch = pixel_values.size(0);
  Tensor x = patch_embed(pixel_values);                   // (B, D, H/P, W/P)
  x = x.flatten(2).transpose(1, 2);                       // (B, N, D)
  x = at::cat({cls_token.expand({batch, 1, -1}), x}, 1);  // (B, 1 + N, D)
  x = dropout(pos_embed(x));

  if (attention != nullptr) attention->clear();
  if (hidden_states != nullptr) hidden_states->assign({x});
  for (const auto& module : *layers) {
    Tensor weights;
    x = module->as<EncoderLayer>()->forward(x, {}, attention != nullptr ? &weights : nullptr);
    if (attention != nullptr) attention->push_back(weights);  // (B, H, T, T)
    if (hidden_states != nullptr) hidden_states->push_back(x);
  }
  // LayerNorm works token by token: normalising only the CLS token gives the logits that
  // normalising the whole sequence first would.
  return classifier(norm(x.select(1, 0)));  // (B, num_labels)
}

Status VitModelImpl::loadWeights(const TensorMap& tensors, const std::string& source) {
  TensorMapLoader loader(tensors, source);
  loader.copy("vit.embeddings.cls_token", cls_token);
  loader.copy("vit.embeddings.patch_embeddings.projection.weight", patch_embed->weight);
  loader.copy("vit.embeddings.patch_embeddings.projection.bias", patch_embed->bias);
  const Tensor& positions = pos_embed->weight;  // (1 + N, D); stored as (1, 1 + N, D)
  loader.copyReshaped("vit.embeddings.position_embeddings",
                      {1, positions.size(0), positions.size(1)}, positions);
  for (size_t i = 0; i < layers->size(); ++i) {
    loadEncoderLayer(loader, vitLayerNames(static_cast<int64_t>(i)),
                     EncoderLayer(layers->ptr<EncoderLayerImpl>(i)), config_.qkv_bias);
  }
  loadLayerNorm(loader, "vit.layernorm", norm);
  loadLinear(loader, "classifier", classifier);
  return loader.finish();
}

}  // namespace ascope
