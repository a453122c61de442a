#include "engine/tasks/attention_capture.h"

namespace ascope {

std::vector<float> toFloats(const at::Tensor& matrix) {
  const at::Tensor m = matrix.detach().to(at::kCPU, at::kFloat).contiguous();
  return std::vector<float>(m.data_ptr<float>(), m.data_ptr<float>() + m.numel());
}

AttentionGroup toAttentionGroup(const std::string& name, const std::vector<at::Tensor>& per_layer,
                                std::vector<std::string> row_labels,
                                std::vector<std::string> col_labels) {
  AttentionGroup group;
  group.name = name;
  group.layers = static_cast<int>(per_layer.size());
  group.heads = per_layer.empty() ? 0 : static_cast<int>(per_layer[0].size(1));
  const int64_t rows = static_cast<int64_t>(row_labels.size());
  const int64_t cols = static_cast<int64_t>(col_labels.size());
  for (const at::Tensor& layer : per_layer) {
    const at::Tensor kept = layer[0].narrow(1, 0, rows).narrow(2, 0, cols);  // (H, rows, cols)
    for (int64_t h = 0; h < kept.size(0); ++h) {
      group.maps.push_back({static_cast<int>(rows), static_cast<int>(cols), toFloats(kept[h])});
    }
  }
  group.row_labels = std::move(row_labels);
  group.col_labels = std::move(col_labels);
  return group;
}

}  // namespace ascope
