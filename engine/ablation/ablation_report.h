#pragma once
// A head ablation as text for a terminal: the baseline, then per attention group a layer × head
// grid of the change in accuracy (and BLEU) with one head dropped, with a "drop layer" column,
// and the same grid with only that head kept.
#include <string>

#include "engine/runfolder/ablation/ablation_table.h"

namespace ascope {

/// Lines end in '\n'. Accuracy changes are in percentage points, BLEU changes in BLEU points.
std::string formatAblationTable(const AblationTable& table);

}  // namespace ascope
