#include "engine/tasks/attention_capture.h"

namespace ascope {

std::vector<float> toFloats(const at::Tensor& matrix) {
  const at::Tensor m = matrix.detach().to(at::kCPU, at::kFloat).contiguous();
  return std::vector<float>(m.data_ptr<float>(), m.data_ptr<float>() + m.numel());
}

AttentionGroup toAttentionGroup(const std::string& name, const std::vector<at::Tensor>& per_layer,
                                std::vector<std::string> row_labels,
                                std::vector<std::string> col_labels, int64_t row) {
  AttentionGroup group;
  group.name = name;
  group.layers = static_cast<int>(per_layer.size());
  group.heads = per_layer.empty() ? 0 : static_cast<int>(per_layer[0].size(1));
  const int64_t rows = static_cast<int64_t>(row_labels.size());
  const int64_t cols = static_cast<int64_t>(col_labels.size());
  for (const at::Tensor& layer : per_layer) {
    // One copy of the layer's corner, then plain slices of it: a probe copies every head of
    // every layer of every sample, and a tensor op per head costs more than the head's floats.
    const std::vector<float> kept =
        toFloats(layer[row].narrow(1, 0, rows).narrow(2, 0, cols));  // (H, rows, cols)
    const auto per_head = static_cast<std::ptrdiff_t>(rows * cols);
    for (int64_t h = 0; h < layer.size(1); ++h) {
      const auto first = kept.begin() + h * per_head;
      group.maps.push_back({static_cast<int>(rows), static_cast<int>(cols),
                            std::vector<float>(first, first + per_head)});
    }
  }
  group.row_labels = std::move(row_labels);
  group.col_labels = std::move(col_labels);
  return group;
}

}  // namespace ascope
