#pragma once
// What the tasks' models share: a stack of EncoderLayers whose self-attention modules are the
// attention sites of one group, and a position table shown as the positional-encoding snapshot.
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/normalization.h>

#include <functional>

#include <string>
#include <vector>

#include "engine/tasks/task.h"

namespace ascope {

/// Where a stack's input comes from when it is token + position: the position module's
/// recording switch and a LayerNorm between the sum and the stack (BERT's embedding norm; null
/// when the sum goes straight in).
struct PositionSource {
  std::function<void(PositionSums*)> record;
  torch::nn::LayerNorm norm_before{nullptr};
};

/// The recording switch of a position module (LearnedPositionEmbedding,
/// SinusoidalPositionalEncoding; a module holder: the switch shares the module).
template <typename PositionModule>
std::function<void(PositionSums*)> recordSumsOf(PositionModule module) {
  return [module](PositionSums* sink) mutable { module->recordSums(sink); };
}

/// One site per EncoderLayer of `layers` (a module holder: copies share the list), in order, in
/// group `group`. With `positions`, the first layer's site can split its logits into token and
/// position parts.
std::vector<AttentionSite> encoderAttentionSites(torch::nn::ModuleList layers,
                                                 const std::string& group,
                                                 const PositionSource& positions = {});

/// The first layer's input LayerNorm for a stack fed by `positions`: `norm_before`, else the
/// layer's own pre-norm, else none.
torch::nn::LayerNorm firstLayerInputNorm(const PositionSource& positions, bool norm_first,
                                         const torch::nn::LayerNorm& layer_norm);

/// A (positions, dims) table as a snapshot of kind `kind` ("learned", "sinusoidal", …).
PositionalEncodingSnapshot positionTableSnapshot(const at::Tensor& table, const std::string& kind);

}  // namespace ascope
