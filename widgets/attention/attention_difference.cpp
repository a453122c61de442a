#include "widgets/attention/attention_difference.h"

#include <QObject>

#include <algorithm>
#include <cmath>

namespace ascope {

AttentionDifference attentionDifference(const LabeledMatrix& a, const LabeledMatrix& b) {
  AttentionDifference result;
  if (!a.isValid() || !b.isValid()) {
    result.problem = QObject::tr("one of the runs has no attention for this head");
    return result;
  }
  if (a.rows != b.rows || a.cols != b.cols) {
    result.problem = QObject::tr(
                         "the maps differ in shape (%1×%2 and %3×%4): the runs saw "
                         "different tokens, so no difference is shown")
                         .arg(a.rows)
                         .arg(a.cols)
                         .arg(b.rows)
                         .arg(b.cols);
    return result;
  }
  result.matrix = LabeledMatrix(a.rows, a.cols);
  result.matrix.row_labels = a.row_labels;
  result.matrix.col_labels = a.col_labels;
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    result.matrix.values[i] = a.values[i] - b.values[i];  // NaN in either stays NaN
  }
  return result;
}

double largestDifference(const AttentionPlotGroup& a, const AttentionPlotGroup& b) {
  double largest = 0.0;
  const int layers = std::min(a.layerCount(), b.layerCount());
  for (int l = 0; l < layers; ++l) {
    const int heads = std::min(a.headCount(l), b.headCount(l));
    for (int h = 0; h < heads; ++h) {
      const LabeledMatrix& ma = a.layers[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)];
      const LabeledMatrix& mb = b.layers[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)];
      if (ma.rows != mb.rows || ma.cols != mb.cols || ma.values.size() != mb.values.size())
        continue;
      for (std::size_t i = 0; i < ma.values.size(); ++i) {
        const double d = std::abs(static_cast<double>(ma.values[i]) - mb.values[i]);
        if (std::isfinite(d)) largest = std::max(largest, d);
      }
    }
  }
  return largest;
}

}  // namespace ascope
