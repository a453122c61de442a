#pragma once
// Engine side of the engine → GUI conversion: the only GUI files that see engine/train/events.h
// (see gui_batch.h for why).
#include "app/gui/gui_batch.h"
#include "engine/train/events.h"

namespace ascope {

RunState toRunState(TrainerState state);

/// Moves one drained batch into GUI values. Only the newest attention snapshot, positional
/// encoding and sample exist in `batch` (the queue keeps the latest); metrics become one series
/// per curve, so a drain of many steps is one append per panel.
GuiBatch translateEvents(EventBatch&& batch);

/// Attention weights of every group, layer and head with row/column labels and axis titles.
AttentionFrame toAttentionFrame(AttentionSnapshot&& snapshot);

PositionalEncodingData toPositionalEncodingData(PositionalEncodingSnapshot&& snapshot);

SampleView toSampleView(SamplePrediction&& sample);

/// Channel-planar RGB (the engine's layout) as the widgets' RgbImage.
RgbImage toRgbImage(ImageBuffer&& image);

}  // namespace ascope
