#pragma once
// Small attention groups written out by hand, for the analysis tests (rollout, head statistics).
#include <string>
#include <utility>
#include <vector>

#include "engine/vocabulary/events.h"

namespace ascope::testing {

/// One head's map from its rows.
inline AttentionMap mapOf(const std::vector<std::vector<float>>& rows) {
  AttentionMap map;
  map.rows = static_cast<int>(rows.size());
  map.cols = rows.empty() ? 0 : static_cast<int>(rows.front().size());
  for (const auto& row : rows) map.values.insert(map.values.end(), row.begin(), row.end());
  return map;
}

/// A group of `layers` × `heads` maps (layer-major, as AttentionGroup::map indexes them); the
/// labels default to "t0", "t1", … for rows and columns.
inline AttentionGroup groupOf(std::string name, int layers, int heads,
                              std::vector<AttentionMap> maps,
                              std::vector<std::string> col_labels = {}) {
  AttentionGroup group;
  group.name = std::move(name);
  group.layers = layers;
  group.heads = heads;
  if (!maps.empty()) {
    for (int i = 0; i < maps.front().rows; ++i) group.row_labels.push_back("t" + std::to_string(i));
    if (col_labels.empty()) {
      for (int j = 0; j < maps.front().cols; ++j) col_labels.push_back("t" + std::to_string(j));
    }
  }
  group.col_labels = std::move(col_labels);
  group.maps = std::move(maps);
  return group;
}

/// A snapshot holding the one group.
inline AttentionSnapshot snapshotOf(AttentionGroup group) {
  AttentionSnapshot snapshot;
  snapshot.groups.push_back(std::move(group));
  return snapshot;
}

}  // namespace ascope::testing
