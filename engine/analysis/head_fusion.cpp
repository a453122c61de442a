#include "engine/analysis/head_fusion.h"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "engine/analysis/attention_group_shape.h"

namespace ascope {

const char* headFusionName(HeadFusion fusion) {
  switch (fusion) {
    case HeadFusion::kMean:
      return "mean";
    case HeadFusion::kMin:
      return "min";
    case HeadFusion::kMax:
      return "max";
  }
  return "mean";
}

std::optional<HeadFusion> headFusionFromName(std::string_view name) {
  for (HeadFusion fusion : {HeadFusion::kMean, HeadFusion::kMin, HeadFusion::kMax}) {
    if (name == headFusionName(fusion)) return fusion;
  }
  return std::nullopt;
}

AttentionMap fuseHeads(const AttentionGroup& group, int layer, HeadFusion fusion) {
  if (layer < 0 || layer >= group.layers || !checkAttentionGroupShape(group).ok()) return {};
  const AttentionMap& first = group.map(layer, 0);
  AttentionMap fused{first.rows, first.cols, first.values};
  if (fusion == HeadFusion::kMean) {
    // Summed in double: a float sum of many heads would drift from the mean the tests work out.
    std::vector<double> sums(first.values.begin(), first.values.end());
    for (int head = 1; head < group.heads; ++head) {
      const std::vector<float>& values = group.map(layer, head).values;
      for (std::size_t i = 0; i < values.size(); ++i) sums[i] += values[i];
    }
    for (std::size_t i = 0; i < sums.size(); ++i) {
      fused.values[i] = static_cast<float>(sums[i] / group.heads);
    }
    return fused;
  }
  for (int head = 1; head < group.heads; ++head) {
    const std::vector<float>& values = group.map(layer, head).values;
    for (std::size_t i = 0; i < values.size(); ++i) {
      float& cell = fused.values[i];
      cell = fusion == HeadFusion::kMin ? std::min(cell, values[i]) : std::max(cell, values[i]);
    }
  }
  return fused;
}

}  // namespace ascope
