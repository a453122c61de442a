#pragma once
// A head ablation as text for a terminal: the baseline, then per attention group a layer × head
// grid of the change in accuracy (and in each figure the task tracks) with one head dropped, with a
// "drop layer" column, and the same grid with only that head kept.
#include <string>

#include "engine/runfolder/ablation/ablation_table.h"
#include "engine/vocabulary/metric_info.h"

namespace ascope {

/// Lines end in '\n'. Accuracy changes are in percentage points, each figure's (`declared` titles
/// and rounds them: the run's task's TaskDescriptor::metrics) in its own unit.
std::string formatAblationTable(const AblationTable& table,
                                const std::vector<MetricInfo>& declared);

}  // namespace ascope
