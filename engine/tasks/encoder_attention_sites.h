#pragma once
// What the tasks' models share: a stack of EncoderLayers whose self-attention modules are the
// attention sites of one group, and a position table shown as the positional-encoding snapshot.
#include <torch/nn/modules/container/modulelist.h>

#include <string>
#include <vector>

#include "engine/tasks/task.h"

namespace ascope {

/// One site per EncoderLayer of `layers` (a module holder: copies share the list), in order, in
/// group `group`.
std::vector<AttentionSite> encoderAttentionSites(torch::nn::ModuleList layers,
                                                 const std::string& group);

/// A (positions, dims) table as a snapshot of kind `kind` ("learned", "sinusoidal", …).
PositionalEncodingSnapshot positionTableSnapshot(const at::Tensor& table, const std::string& kind);

}  // namespace ascope
