#include "engine/pretrained/hf_encoder_layer_weights.h"

#include <ATen/core/grad_mode.h>

namespace ascope {

void loadLinear(TensorMapLoader& loader, const std::string& prefix,
                const torch::nn::Linear& linear) {
  loader.copy(prefix + ".weight", linear->weight);
  loader.copy(prefix + ".bias", linear->bias);
}

void loadLayerNorm(TensorMapLoader& loader, const std::string& prefix,
                   const torch::nn::LayerNorm& norm) {
  loader.copy(prefix + ".weight", norm->weight);
  loader.copy(prefix + ".bias", norm->bias);
}

void loadEncoderLayer(TensorMapLoader& loader, const HfEncoderLayerNames& names,
                      const EncoderLayer& layer, bool qkv_bias) {
  const MultiHeadAttention& attention = layer->self_attn;
  loader.copyConcatenated({names.query + ".weight", names.key + ".weight", names.value + ".weight"},
                          attention->in_proj_weight);
  if (qkv_bias) {
    loader.copyConcatenated({names.query + ".bias", names.key + ".bias", names.value + ".bias"},
                            attention->in_proj_bias);
  } else {
    const at::NoGradGuard no_grad;
    attention->in_proj_bias.zero_();
    attention->in_proj_bias.set_requires_grad(false);
  }
  loadLinear(loader, names.attention_output, attention->out_proj);
  loadLayerNorm(loader, names.attention_norm, layer->norm1);
  loadLinear(loader, names.intermediate, layer->feed_forward->linear1);
  loadLinear(loader, names.output, layer->feed_forward->linear2);
  loadLayerNorm(loader, names.output_norm, layer->norm2);
}

}  // namespace ascope
