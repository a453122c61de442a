#pragma once
// Widget side of the attention conversion (see gui_batch.h): never include engine/train/events.h
// next to this header.
#include "app/gui/gui_batch.h"
#include "widgets/attention_plot_data.h"

namespace ascope {

/// Moves the frame's matrices into the attention panel's snapshot type.
AttentionPlotData toWidgetSnapshot(AttentionFrame&& frame);

}  // namespace ascope
