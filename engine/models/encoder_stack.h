#pragma once
#include <torch/nn/modules/container/modulelist.h>

#include <vector>

#include "engine/nn/encoder_layer.h"

namespace ascope {

/// A ModuleList of `count` identical encoder layers.
torch::nn::ModuleList makeEncoderStack(int64_t count, const TransformerLayerOptions& options);

/// Runs x through every EncoderLayer of `layers`; collects per-layer (B, H, T, T) weights when
/// `attention` is given.
Tensor runEncoderStack(const torch::nn::ModuleList& layers, Tensor x, const AttentionMasks& masks,
                       std::vector<Tensor>* attention);

}  // namespace ascope
