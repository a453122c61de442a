#pragma once
// What the analyses (rollout, head statistics) need of an AttentionGroup before they index into
// it: a group read from a run folder or built by a test is only as consistent as its maker.
#include "engine/vocabulary/events.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// OK when the group has layers × heads maps, all of one rows × cols shape with a value for every
/// cell. Errors name the group: "\"encoder\": 5 maps for 2 layers × 2 heads".
Status checkAttentionGroupShape(const AttentionGroup& group);

/// Queries and keys are tokens of one sequence: square maps, and not the decoder's "cross" group
/// (whose queries are target tokens and keys source tokens even when both counts agree).
bool isSelfAttention(const AttentionGroup& group);

}  // namespace ascope
