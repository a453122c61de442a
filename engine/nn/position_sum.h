#pragma once
// The two addends of a position module's forward pass (tokens + positions), kept only while
// someone asks: the Computation view splits a first layer's logits into token and position parts.
#include <ATen/ATen.h>

#include <vector>

namespace ascope {

struct PositionSum {
  at::Tensor tokens;     ///< (B, T, d): what came in
  at::Tensor positions;  ///< (1, T, d): what was added to it
};

/// Every forward pass of a position module while recording, in order (a translator's one table
/// serves its encoder and then its decoder).
using PositionSums = std::vector<PositionSum>;

}  // namespace ascope
