#pragma once
// Attention rollout (Abnar & Zuidema 2020, "Quantifying Attention Flow in Transformers"), in the
// form vit-explain made popular: how much each input token flows into each position after the
// layers, residual connections counted.
#include <vector>

#include "engine/analysis/head_fusion.h"
#include "engine/vocabulary/events.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

struct RolloutOptions {
  HeadFusion fusion = HeadFusion::kMean;
  /// Share of each fused layer's cells zeroed as noise before the residual is added, in [0, 1).
  double discard_ratio = 0;
  /// The rollout through layers 0..last_layer; -1 for all of them.
  int last_layer = -1;
};

/// R = A_last · … · A_0 with, for each layer, W its heads fused, the floor(discard_ratio · n²)
/// smallest cells of W zeroed (cell [0][0], CLS → CLS on a ViT, spared), A = (W + I) / 2 and each
/// row of A divided by its sum. Row i of R is how much query i, through all those layers, draws
/// on each input token; for a ViT, row 0 (CLS) reshaped to the patch grid is the usual overlay.
/// Errors: a group that is not self-attention ("rollout needs self-attention; \"cross\" maps 5
/// queries onto 7 keys"), a malformed group, a ratio outside [0, 1), a layer past the last.
Expected<AttentionMap> attentionRollout(const AttentionGroup& group, const RolloutOptions& options);

/// The rollouts through layer 0, through layers 0–1, …, through options.last_layer, in that order:
/// what attentionRollout gives for each last layer, for the cost of one (each is the one before
/// times the next layer). Same errors.
Expected<std::vector<AttentionMap>> attentionRolloutByLayer(const AttentionGroup& group,
                                                            const RolloutOptions& options);

}  // namespace ascope
