#pragma once

#include <QStringList>

#include <vector>

namespace ascope {

/// What one query attended to: a weight per key, with the keys' tokens. Empty when there is no
/// such row.
struct AttentionRow {
  std::vector<float> values;  ///< one per key; NaN where no head has a value
  QStringList labels;         ///< one per key

  bool isEmpty() const { return values.empty(); }
};

}  // namespace ascope
