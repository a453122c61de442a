#pragma once

#include <QStringList>

#include <utility>
#include <vector>

namespace ascope {

/// A dense matrix of floats with optional labels for its rows and columns: one attention head
/// (rows = queries, columns = keys), a positional-encoding table or a similarity matrix.
/// Values are row-major; NaN marks a cell that has no value (drawn transparent).
struct LabeledMatrix {
  int rows = 0;
  int cols = 0;
  std::vector<float> values;  ///< rows * cols, row-major
  QStringList row_labels;     ///< empty or one per row
  QStringList col_labels;     ///< empty or one per column

  LabeledMatrix() = default;
  LabeledMatrix(int row_count, int col_count, float fill = 0.0f);

  bool isValid() const;
  float at(int row, int col) const { return values[static_cast<size_t>(row) * cols + col]; }
  float& at(int row, int col) { return values[static_cast<size_t>(row) * cols + col]; }

  /// Label of a row/column, or its index when no labels were given.
  QString rowLabel(int row) const;
  QString colLabel(int col) const;

  /// Smallest and largest finite value; (0, 0) when there is none.
  std::pair<float, float> finiteRange() const;
};

}  // namespace ascope
