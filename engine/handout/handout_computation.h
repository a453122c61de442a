#pragma once
// A head's attention as a computation (engine/vocabulary/attention_computation.h) as the handout
// carries it: the stages of one head with the model's own numbers, and the cell the page opens
// first. The caller computes it (the CLI asks the engine, which needs LibTorch; this library
// links none) and hands plain values over; handout_computation_packing.h packs them.
#include <string>
#include <vector>

#include "engine/vocabulary/attention_computation.h"

namespace ascope {

struct HandoutComputation {
  AttentionComputation computation;
  int query = 0;  ///< the cell taken apart first
  int key = 0;
};

/// The cell a head is opened at when none is asked for: the largest weight of a row that has a
/// choice (two or more unmasked keys: a row with one key gives it everything), the first of
/// equals; {-1, -1} for a head without such a row.
struct ComputationCell {
  int query = -1;
  int key = -1;
};
ComputationCell strongestCell(const AttentionComputation& computation);

}  // namespace ascope
