#include "widgets/common/labeled_matrix.h"

#include <cmath>
#include <limits>

namespace ascope {

LabeledMatrix::LabeledMatrix(int row_count, int col_count, float fill)
    : rows(row_count),
      cols(col_count),
      values(static_cast<size_t>(row_count) * static_cast<size_t>(col_count), fill) {}

bool LabeledMatrix::isValid() const {
  return rows > 0 && cols > 0 && values.size() == static_cast<size_t>(rows) * cols &&
         (row_labels.isEmpty() || row_labels.size() == rows) &&
         (col_labels.isEmpty() || col_labels.size() == cols);
}

QString LabeledMatrix::rowLabel(int row) const {
  return row < row_labels.size() ? row_labels[row] : QString::number(row);
}

QString LabeledMatrix::colLabel(int col) const {
  return col < col_labels.size() ? col_labels[col] : QString::number(col);
}

std::pair<float, float> LabeledMatrix::finiteRange() const {
  float lo = std::numeric_limits<float>::infinity();
  float hi = -std::numeric_limits<float>::infinity();
  for (float v : values) {
    if (!std::isfinite(v)) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (lo > hi) return {0.0f, 0.0f};
  return {lo, hi};
}

}  // namespace ascope
