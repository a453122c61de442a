#pragma once
// Two runs' attention on the same probe sample, subtracted: what training differently changed.
#include "widgets/attention/attention_plot_data.h"
#include "widgets/common/labeled_matrix.h"

#include <QString>

namespace ascope {

struct AttentionDifference {
  LabeledMatrix matrix;  ///< a − b cell by cell, with a's labels; invalid when `problem` is set
  QString problem;       ///< why there is no difference map ("shapes differ: 5×5 and 7×7")
};

/// a − b, element by element; a cell missing (NaN) in either stays NaN. Matrices of different
/// shapes have no meaningful difference: `problem` says so instead.
AttentionDifference attentionDifference(const LabeledMatrix& a, const LabeledMatrix& b);

/// The largest |a − b| over every layer and head the two groups share with the same shape (0 when
/// none): a scale symmetric around 0 that stays the same while heads and layers are browsed.
double largestDifference(const AttentionPlotGroup& a, const AttentionPlotGroup& b);

}  // namespace ascope
