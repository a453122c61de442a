#pragma once
// Copies attention tensors out to plain AttentionGroup values (on the training thread).
#include <ATen/ATen.h>

#include <string>
#include <vector>

#include "engine/vocabulary/events.h"

namespace ascope {

/// `per_layer` holds one (B, H, Tq, Tk) tensor per layer; of batch row `row`, only the top-left
/// rows × cols corner is kept (to drop padding).
AttentionGroup toAttentionGroup(const std::string& name, const std::vector<at::Tensor>& per_layer,
                                std::vector<std::string> row_labels,
                                std::vector<std::string> col_labels, int64_t row = 0);

/// A (rows, cols) float matrix, row-major, as plain floats.
std::vector<float> toFloats(const at::Tensor& matrix);

}  // namespace ascope
