#pragma once
// The Computation view's one conversion: the engine's AttentionComputation (one head recomputed
// stage by stage) as the stages the view draws, and a cell's breakdown as its bars and lines.
#include <QString>

#include "engine/analysis/attention_cell_breakdown.h"
#include "engine/vocabulary/attention_computation.h"
#include "widgets/computation/computation_plot_data.h"

namespace ascope {

/// The stages of `c`, headed by what it is; `pretrained`: its weights are a pretrained model
/// folder's, not a run's checkpoint. `shown_step` is the step the window shows for a run's
/// sample (-1 for an asked input or a pretrained model): when the weights are another step's
/// (only last.pt and best.pt are kept), the data says so plainly.
ComputationPlotData toComputationPlotData(const AttentionComputation& c, const QString& answer,
                                          bool pretrained, long long shown_step);

/// The breakdown of one cell with its row's weights, for CellBreakdownView.
CellBreakdownData toCellBreakdownData(const AttentionComputation& c,
                                      const AttentionCellBreakdown& cell);

}  // namespace ascope
