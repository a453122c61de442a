#include "engine/analysis/attention_rollout.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "engine/analysis/attention_group_shape.h"

namespace ascope {
namespace {

using Matrix = std::vector<double>;  // n × n, row-major

/// Zeroes the `count` smallest cells, chosen before cell 0 is spared, so that when cell 0 is among
/// them one cell fewer is zeroed: what vit-explain does (topk of the smallest, then index 0 taken
/// out). Equal values go by position, so the result does not depend on a sort's whims.
void discardSmallest(Matrix& w, std::size_t count) {
  if (count == 0) return;
  std::vector<std::size_t> order(w.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::partial_sort(
      order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count), order.end(),
      [&](std::size_t a, std::size_t b) { return w[a] < w[b] || (w[a] == w[b] && a < b); });
  for (std::size_t k = 0; k < count; ++k) {
    if (order[k] != 0) w[order[k]] = 0;
  }
}

/// (W + I) / 2 with its rows divided by their sums: the residual connection carries half.
void addResidualAndNormalise(Matrix& w, int n) {
  for (int i = 0; i < n; ++i) {
    double* row = &w[static_cast<std::size_t>(i) * n];
    row[i] += 1;
    double sum = 0;
    for (int j = 0; j < n; ++j) sum += row[j] /= 2;
    // The diagonal alone gives at least 1/2, so the sum is never 0 for finite weights.
    for (int j = 0; j < n; ++j) row[j] /= sum;
  }
}

Matrix multiply(const Matrix& a, const Matrix& b, int n) {
  Matrix c(a.size(), 0.0);
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < n; ++k) {
      const double aik = a[static_cast<std::size_t>(i) * n + k];
      if (aik == 0) continue;
      for (int j = 0; j < n; ++j) {
        c[static_cast<std::size_t>(i) * n + j] += aik * b[static_cast<std::size_t>(k) * n + j];
      }
    }
  }
  return c;
}

}  // namespace

Expected<std::vector<AttentionMap>> attentionRolloutByLayer(const AttentionGroup& group,
                                                            const RolloutOptions& options) {
  if (Status shape = checkAttentionGroupShape(group); !shape.ok()) {
    return Error{"rollout: " + shape.error()};
  }
  const AttentionMap& first = group.maps.front();
  if (!isSelfAttention(group)) {
    return Error{"rollout needs self-attention; \"" + group.name + "\" maps " +
                 std::to_string(first.rows) + " queries onto " + std::to_string(first.cols) +
                 " keys" + (first.rows == first.cols ? " of another sequence" : "")};
  }
  if (!(options.discard_ratio >= 0 && options.discard_ratio < 1)) {
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%g", options.discard_ratio);
    return Error{std::string("rollout: discard ratio ") + ratio + " is not in [0, 1)"};
  }
  if (options.last_layer < -1 || options.last_layer >= group.layers) {
    return Error{"rollout: layer " + std::to_string(options.last_layer) + " of \"" + group.name +
                 "\" does not exist (layers 0 to " + std::to_string(group.layers - 1) +
                 ", or -1 for all)"};
  }
  const int last = options.last_layer < 0 ? group.layers - 1 : options.last_layer;
  const int n = first.rows;
  const std::size_t cells = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  const auto discarded =
      static_cast<std::size_t>(std::floor(options.discard_ratio * static_cast<double>(cells)));

  std::vector<AttentionMap> rollouts;
  Matrix rollout(cells, 0.0);
  for (int i = 0; i < n; ++i) rollout[static_cast<std::size_t>(i) * n + i] = 1;
  for (int layer = 0; layer <= last; ++layer) {
    const AttentionMap fused = fuseHeads(group, layer, options.fusion);
    Matrix a(fused.values.begin(), fused.values.end());
    discardSmallest(a, discarded);
    addResidualAndNormalise(a, n);
    rollout = multiply(a, rollout, n);  // later layers act on what the earlier ones mixed
    AttentionMap result{n, n, std::vector<float>(cells)};
    for (std::size_t i = 0; i < cells; ++i) result.values[i] = static_cast<float>(rollout[i]);
    rollouts.push_back(std::move(result));
  }
  return rollouts;
}

Expected<AttentionMap> attentionRollout(const AttentionGroup& group,
                                        const RolloutOptions& options) {
  Expected<std::vector<AttentionMap>> rollouts = attentionRolloutByLayer(group, options);
  if (!rollouts.ok()) return Error{rollouts.error()};
  return std::move(rollouts->back());
}

}  // namespace ascope
