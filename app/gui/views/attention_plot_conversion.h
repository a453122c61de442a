#pragma once
// The attention panel's one conversion: an engine snapshot (live, opened or read from the
// timeline) as the panel's AttentionPlotData, with the axis titles its task gives each group.
#include "engine/train/events.h"
#include "widgets/attention_plot_data.h"

namespace ascope {

AttentionPlotData toAttentionPlotData(const AttentionSnapshot& snapshot);

}  // namespace ascope
