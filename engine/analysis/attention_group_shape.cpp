#include "engine/analysis/attention_group_shape.h"

#include <cstddef>
#include <string>

namespace ascope {

Status checkAttentionGroupShape(const AttentionGroup& group) {
  const std::string name = "\"" + group.name + "\"";
  if (group.layers <= 0 || group.heads <= 0) {
    return Error{name + ": " + std::to_string(group.layers) + " layers × " +
                 std::to_string(group.heads) + " heads has no maps"};
  }
  const std::size_t expected =
      static_cast<std::size_t>(group.layers) * static_cast<std::size_t>(group.heads);
  if (group.maps.size() != expected) {
    return Error{name + ": " + std::to_string(group.maps.size()) + " maps for " +
                 std::to_string(group.layers) + " layers × " + std::to_string(group.heads) +
                 " heads"};
  }
  const AttentionMap& first = group.maps.front();
  if (first.rows <= 0 || first.cols <= 0) {
    return Error{name + ": a map of " + std::to_string(first.rows) + "×" +
                 std::to_string(first.cols) + " cells"};
  }
  for (std::size_t i = 0; i < group.maps.size(); ++i) {
    const AttentionMap& map = group.maps[i];
    const std::size_t cells =
        static_cast<std::size_t>(map.rows > 0 ? map.rows : 0) * (map.cols > 0 ? map.cols : 0);
    if (map.rows != first.rows || map.cols != first.cols || map.values.size() != cells) {
      return Error{name + ": map " + std::to_string(i) + " is " + std::to_string(map.rows) + "×" +
                   std::to_string(map.cols) + " with " + std::to_string(map.values.size()) +
                   " values; map 0 is " + std::to_string(first.rows) + "×" +
                   std::to_string(first.cols)};
    }
  }
  return {};
}

bool isSelfAttention(const AttentionGroup& group) {
  if (group.name == "cross" || group.maps.empty()) return false;
  return group.maps.front().rows == group.maps.front().cols;
}

}  // namespace ascope
