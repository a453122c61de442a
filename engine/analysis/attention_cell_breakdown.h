#pragma once
// One cell of a head's attention taken apart: the logit of query i for key j as the sum of
// q_i[d]·k_j[d] over the head's dimensions, the scale, where the scaled logit stands in its row
// before and after the softmax, and (where the positions are added to the tokens) the logit as
// token·token + token·position + position·token + position·position. Plain arithmetic on the
// engine's numbers (engine/vocabulary/attention_computation.h); no LibTorch.
#include <array>
#include <string>
#include <vector>

#include "engine/vocabulary/attention_computation.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

struct AttentionCellBreakdown {
  int query = 0;
  int key = 0;
  bool masked = false;           ///< the mask blocks this key: no logit, weight 0
  std::vector<double> products;  ///< q[d]·k[d] for each of the head's dimensions
  double sum = 0;                ///< Σ products, the logit recomposed
  double logit = 0;              ///< QKᵀ as the engine computed it
  double scale = 1;              ///< 1/√d_head
  double scaled = 0;             ///< logit × scale
  double weight = 0;             ///< after the softmax
  int rank_before = 0;           ///< 1: the row's largest scaled logit among unmasked keys
  int rank_after = 0;            ///< 1: the row's largest weight
  int unmasked_keys = 0;         ///< keys the row may attend to
  double row_max_scaled = 0;     ///< the largest unmasked scaled logit of the row
  bool has_parts = false;
  /// token·token, token·position, position·token, position·position (unscaled, in logit units).
  std::array<double, 4> parts{};
};

/// Names of AttentionCellBreakdown::parts, in order.
const std::array<std::string, 4>& positionPartNames();

/// The breakdown of (query, key); an error names a query or key outside the computation.
Expected<AttentionCellBreakdown> breakDownCell(const AttentionComputation& computation, int query,
                                               int key);

/// The query's unmasked key with the largest weight (the cell a view opens first), -1 when the
/// row has none.
int strongestKey(const AttentionComputation& computation, int query);

}  // namespace ascope
