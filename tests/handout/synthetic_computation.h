#pragma once
// A head's computation made by hand for the handout tests (engine/vocabulary/
// attention_computation.h): a causal self-attention head over four tokens, d_model 4, d_head 2,
// whose q and k are token and position parts added up, so every stage, the mask and the
// position split can be checked after packing without a model.
#include "engine/vocabulary/attention_computation.h"

namespace ascope::testing {

AttentionComputation syntheticComputation();

}  // namespace ascope::testing
