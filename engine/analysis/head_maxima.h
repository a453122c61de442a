#pragma once
// Each head's largest informative weight in an attention group: the top of the window's Run colour
// scale (widgets/attention/attention_run_maxima.h), computed straight from a stored snapshot.
// Opening a run takes it from every snapshot; converting each one to plot data first (labels,
// matrices copied into the widgets' types) only to take these maxima cost most of the opening.
#include <vector>

#include "engine/vocabulary/attention_snapshot.h"

namespace ascope {

/// [layer][head]: the largest finite weight of each head's map, leaving out what tells nothing: a
/// causal group's first row (its query sees only itself, so its one weight is always 1) and the
/// masked cells above the diagonal. 0 for a head without finite weights, and for heads missing
/// from a short `maps`. The same rule as AttentionHeadDisplay::informativeMax (widgets/, which
/// cannot include the engine); a test holds the two together.
std::vector<std::vector<float>> informativeHeadMaxima(const AttentionGroup& group);

}  // namespace ascope
