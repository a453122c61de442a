#include "engine/analysis/head_maxima.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace ascope {

std::vector<std::vector<float>> informativeHeadMaxima(const AttentionGroup& group) {
  const int layers = std::max(0, group.layers);
  const int heads = std::max(0, group.heads);
  std::vector<std::vector<float>> tops(static_cast<std::size_t>(layers),
                                       std::vector<float>(static_cast<std::size_t>(heads), 0.0f));
  for (int layer = 0; layer < layers; ++layer) {
    for (int head = 0; head < heads; ++head) {
      const std::size_t index = static_cast<std::size_t>(layer) * heads + head;
      if (index >= group.maps.size()) return tops;
      const AttentionMap& map = group.maps[index];
      if (map.rows <= 0 || map.cols <= 0 ||
          map.values.size() != static_cast<std::size_t>(map.rows) * map.cols) {
        continue;
      }
      float best = 0.0f;
      const int first_row = group.causal && map.rows > 1 ? 1 : 0;
      for (int r = first_row; r < map.rows; ++r) {
        const float* row = map.values.data() + static_cast<std::size_t>(r) * map.cols;
        const int end = group.causal ? std::min(map.cols, r + 1) : map.cols;
        // NaN never wins a comparison; an infinite weight spoils the head's top, as on screen.
        for (int c = 0; c < end; ++c) best = row[c] > best ? row[c] : best;
      }
      tops[static_cast<std::size_t>(layer)][static_cast<std::size_t>(head)] =
          std::isfinite(best) ? best : 0.0f;
    }
  }
  return tops;
}

}  // namespace ascope
