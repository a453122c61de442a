#include "engine/analysis/attention_cell_breakdown.h"

#include <cstddef>

namespace ascope {
namespace {

double dot(const ComputationMatrix& a, int row_a, const ComputationMatrix& b, int row_b) {
  double s = 0;
  for (int d = 0; d < a.cols; ++d) s += static_cast<double>(a.at(row_a, d)) * b.at(row_b, d);
  return s;
}

}  // namespace

const std::array<std::string, 4>& positionPartNames() {
  static const std::array<std::string, 4> names{"token·token", "token·position", "position·token",
                                                "position·position"};
  return names;
}

Expected<AttentionCellBreakdown> breakDownCell(const AttentionComputation& c, int query, int key) {
  const int queries = c.q.rows;
  const int keys = c.k.rows;
  if (query < 0 || query >= queries) {
    return Error{"query " + std::to_string(query) + " is out of range: this input has " +
                 std::to_string(queries) + " queries (0.." + std::to_string(queries - 1) + ")"};
  }
  if (key < 0 || key >= keys) {
    return Error{"key " + std::to_string(key) + " is out of range: this input has " +
                 std::to_string(keys) + " keys (0.." + std::to_string(keys - 1) + ")"};
  }
  AttentionCellBreakdown b;
  b.query = query;
  b.key = key;
  b.scale = c.scale;
  b.masked = c.isMasked(query, key);
  b.products.resize(static_cast<std::size_t>(c.q.cols));
  for (int d = 0; d < c.q.cols; ++d) {
    b.products[static_cast<std::size_t>(d)] =
        static_cast<double>(c.q.at(query, d)) * c.k.at(key, d);
    b.sum += b.products[static_cast<std::size_t>(d)];
  }
  b.logit = c.logits.at(query, key);
  b.scaled = c.scaled.at(query, key);
  b.weight = c.weights.at(query, key);
  bool any = false;
  for (int j = 0; j < keys; ++j) {
    if (c.isMasked(query, j)) continue;
    ++b.unmasked_keys;
    const double s = c.scaled.at(query, j);
    if (!any || s > b.row_max_scaled) b.row_max_scaled = s;
    any = true;
    if (b.masked) continue;
    // Ties share the better rank, so equal logits read as equal places.
    if (s > b.scaled) ++b.rank_before;
    if (c.weights.at(query, j) > b.weight) ++b.rank_after;
  }
  if (!b.masked) {
    ++b.rank_before;
    ++b.rank_after;
  }
  if (c.has_position_split) {
    const PositionSplit& p = c.split;
    b.has_parts = true;
    b.parts[0] = dot(p.q_tokens, query, p.k_tokens, key);
    b.parts[1] = dot(p.q_tokens, query, p.k_positions, key);
    b.parts[2] = dot(p.q_positions, query, p.k_tokens, key);
    b.parts[3] = dot(p.q_positions, query, p.k_positions, key);
  }
  return b;
}

int strongestKey(const AttentionComputation& c, int query) {
  if (query < 0 || query >= c.weights.rows) return -1;
  int best = -1;
  for (int j = 0; j < c.weights.cols; ++j) {
    if (c.isMasked(query, j)) continue;
    if (best < 0 || c.weights.at(query, j) > c.weights.at(query, best)) best = j;
  }
  return best;
}

}  // namespace ascope
