#pragma once
// One map for all heads of a layer, for views and analyses that look at a layer as a whole
// (attention rollout, a layer overview).
#include <optional>
#include <string_view>

#include "engine/vocabulary/events.h"

namespace ascope {

enum class HeadFusion { kMean, kMin, kMax };

/// "mean", "min", "max": the names config files, the CLI and the GUI use.
const char* headFusionName(HeadFusion fusion);
/// The fusion called `name`; nullopt for any other name.
std::optional<HeadFusion> headFusionFromName(std::string_view name);

/// The cell-by-cell mean, minimum or maximum of the heads of `layer`. An empty map (0×0) when
/// `layer` is not one of the group's layers or the group fails checkAttentionGroupShape.
AttentionMap fuseHeads(const AttentionGroup& group, int layer, HeadFusion fusion);

}  // namespace ascope
