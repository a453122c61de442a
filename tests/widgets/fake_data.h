#pragma once

// Plausible made-up data for the widget gallery and the panel tests: what the engine would send
// after some training, without training anything.

#include "widgets/attention/attention_plot_data.h"
#include "widgets/curves/decimating_series.h"
#include "widgets/encoding/positional_encoding_data.h"
#include "widgets/images/rgb_image.h"
#include "widgets/tables/head_ablation_data.h"
#include "widgets/tables/head_stats_series.h"

#include <QPalette>

#include <vector>

namespace ascope::fake {

/// PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(...), as in "Attention Is All You Need".
PositionalEncodingData sinusoidalEncoding(int positions, int dims);

/// Learned ViT position embeddings for a grid (plus CLS row) that, like trained ones, are similar
/// for patches in the same row or column.
PositionalEncodingData learnedPatchEncoding(int grid_rows, int grid_cols, int dims);

/// English→French toy pair: "encoder self", "decoder self" (causal), "cross"; layers x heads.
AttentionPlotData translationAttention(int layers, int heads);

/// ViT on a 32x32 image with an 8x8 patch grid and CLS token.
AttentionPlotData visionAttention(int layers, int heads);

/// A 32x32 picture of a ball on grass under sky, channel-planar like the engine sends it.
RgbImage ballImage();

/// Noisy decaying loss per step, and validation loss at epoch ends.
std::vector<SeriesPoint> trainLoss(int steps);
std::vector<SeriesPoint> validationLoss(int steps, int steps_per_epoch);
std::vector<SeriesPoint> trainAccuracy(int steps);
std::vector<SeriesPoint> validationAccuracy(int steps, int steps_per_epoch);

/// The eight head statistics the engine records, with descriptions.
std::vector<HeadStatsMetric> headStatsMetrics();

/// Head statistics of a translation model ("encoder", "decoder self", "cross"), one probe every
/// `probe_every` steps: entropy falls, some heads turn previous-token or diagonal along the way.
std::vector<HeadStatsProbe> headStatistics(int layers, int heads, int probes, int probe_every);

/// A few "became …" notes that fit headStatistics(…, probe_every = 100).
std::vector<HeadKindNote> headKindNotes();

/// Ablation of a translation model: baseline 81.2 % on 512 samples, most heads barely matter,
/// a few matter a lot, dropping a layer costs much more; keep-only and BLEU included.
HeadAblationData headAblation(int layers, int heads);

/// A dark palette like the app's (app/gui/window/lecture/dark_palette.cpp, which widgets may not
/// use): the gallery's --dark, and the tests that check a panel takes its colours from the palette.
QPalette darkPalette();

}  // namespace ascope::fake
