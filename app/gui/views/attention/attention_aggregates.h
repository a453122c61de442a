#pragma once
// The aggregate views of a probe: for every group of the model, the mean of each layer's heads,
// and for every self-attention group the attention rollout through each layer (Abnar & Zuidema
// 2020), as extra groups of the panel's data ("encoder · mean of heads", "encoder · rollout").
// Plain arithmetic on the plot data, so it applies to live, stored and asked snapshots alike;
// callers run it where they run the conversion (on a worker for large probes).
#include "engine/analysis/head_fusion.h"
#include "widgets/attention/attention_plot_data.h"

namespace ascope {

struct AggregateSettings {
  HeadFusion fusion = HeadFusion::kMean;  ///< how rollout fuses a layer's heads
  double discard_ratio = 0.0;             ///< share of each fused layer's weakest weights dropped
};

/// Replaces the aggregate groups of an earlier call with ones made under `settings`.
void addAttentionAggregates(AttentionPlotData& data, const AggregateSettings& settings);

}  // namespace ascope
