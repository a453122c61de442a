#include "engine/models/encoder_stack.h"

namespace ascope {

torch::nn::ModuleList makeEncoderStack(int64_t count, const TransformerLayerOptions& options) {
  torch::nn::ModuleList layers;
  for (int64_t i = 0; i < count; ++i) layers->push_back(EncoderLayer(options));
  return layers;
}

Tensor runEncoderStack(const torch::nn::ModuleList& layers, Tensor x, const AttentionMasks& masks,
                       std::vector<Tensor>* attention) {
  if (attention != nullptr) attention->clear();
  for (const auto& module : *layers) {
    Tensor weights;
    x = module->as<EncoderLayer>()->forward(x, masks, attention != nullptr ? &weights : nullptr);
    if (attention != nullptr) attention->push_back(weights);  // (B, H, T, T)
  }
  return x;
}

}  // namespace ascope
