#include "engine/analysis/head_statistics.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <tuple>

#include "engine/analysis/attention_group_shape.h"
#include "engine/vocabulary/payloads/token_grid.h"

namespace ascope {
namespace {

enum Metric : std::size_t {
  kEntropy,
  kDistance,
  kSpecialMass,
  kFirstTokenMass,
  kMaxWeight,
  kDiagonal,
  kPreviousToken,
  kNextToken,
  kMetricCount
};
static_assert(kMetricCount == kHeadMetrics.size(), "one Metric per kHeadMetrics entry");

struct Mean {
  double sum = 0;
  int count = 0;
  void add(double v) {
    sum += v;
    ++count;
  }
};
using RowMeans = std::array<Mean, kMetricCount>;

/// Where ViT patches sit: the snapshot's grid must account for every token after CLS.
struct PatchGrid {
  int cols = 0;
  double patch_size = 0;
  bool valid = false;
};

PatchGrid patchGridOf(const AttentionSnapshot& snapshot, int tokens) {
  PatchGrid grid;
  const std::optional<TokenGrid> patches = tokenGridOf(snapshot.payloads);
  if (!patches) return grid;
  grid.valid = patches->rows > 0 && patches->cols > 0 &&
               static_cast<long long>(patches->rows) * patches->cols == tokens - 1;
  grid.cols = patches->cols;
  grid.patch_size = patches->cell_pixels;
  return grid;
}

/// Pixels between the centres of patches a and b (raster order).
double patchDistance(const PatchGrid& grid, int a, int b) {
  const double dr = a / grid.cols - b / grid.cols;
  const double dc = a % grid.cols - b % grid.cols;
  return grid.patch_size * std::sqrt(dr * dr + dc * dc);
}

void addRowMetrics(const AttentionGroup& group, const AttentionMap& map, bool self,
                   const PatchGrid* vit, const std::vector<bool>& special, RowMeans& means) {
  const int cols = map.cols;
  for (int i = 0; i < map.rows; ++i) {
    const int visible = group.causal ? std::min(i + 1, cols) : cols;
    if (visible <= 1) continue;
    const float* w = &map.values[static_cast<std::size_t>(i) * static_cast<std::size_t>(cols)];

    double entropy = 0, max_weight = 0, special_mass = 0;
    bool sees_special = false;
    for (int j = 0; j < visible; ++j) {
      if (w[j] > 0) entropy -= w[j] * std::log(static_cast<double>(w[j]));
      max_weight = std::max(max_weight, static_cast<double>(w[j]));
      if (special[static_cast<std::size_t>(j)]) {
        sees_special = true;
        special_mass += w[j];
      }
    }
    // Float weights sum to 1 only nearly; the ratio must not leave [0, 1] for it.
    means[kEntropy].add(std::clamp(entropy / std::log(static_cast<double>(visible)), 0.0, 1.0));
    means[kMaxWeight].add(max_weight);
    means[kFirstTokenMass].add(w[0]);
    if (sees_special) means[kSpecialMass].add(special_mass);
    if (!self) continue;

    means[kDiagonal].add(w[i]);
    if (i >= 1) means[kPreviousToken].add(w[i - 1]);
    if (!group.causal && i + 1 < cols) means[kNextToken].add(w[i + 1]);
    if (vit == nullptr) {
      double distance = 0;
      for (int j = 0; j < visible; ++j) distance += w[j] * std::abs(i - j);
      means[kDistance].add(distance);
    } else if (vit->valid && i >= 1) {
      double distance = 0, patch_mass = 0;
      for (int j = 1; j < visible; ++j) {
        distance += w[j] * patchDistance(*vit, i - 1, j - 1);
        patch_mass += w[j];
      }
      if (patch_mass > 0) means[kDistance].add(distance / patch_mass);
    }
  }
}

}  // namespace

const HeadMetricInfo* findHeadMetric(std::string_view name) {
  for (const HeadMetricInfo& metric : kHeadMetrics) {
    if (name == metric.name) return &metric;
  }
  return nullptr;
}

bool isSpecialTokenLabel(std::string_view label, const std::vector<std::string>& special_tokens) {
  return std::find(special_tokens.begin(), special_tokens.end(), label) != special_tokens.end();
}

std::vector<HeadStatistic> headStatistics(const std::vector<AttentionSnapshot>& probe_set,
                                          const std::vector<std::string>& special_tokens) {
  std::vector<std::string> group_names;  // in the order they first appear
  // (group, layer, head, metric) → the per-sample means
  std::map<std::tuple<std::size_t, int, int, std::size_t>, Mean> per_head;
  for (const AttentionSnapshot& snapshot : probe_set) {
    for (const AttentionGroup& group : snapshot.groups) {
      if (!checkAttentionGroupShape(group).ok()) continue;
      const auto found = std::find(group_names.begin(), group_names.end(), group.name);
      const std::size_t group_index = static_cast<std::size_t>(found - group_names.begin());
      if (found == group_names.end()) group_names.push_back(group.name);

      const bool self = isSelfAttention(group);
      const int cols = group.maps.front().cols;
      std::vector<bool> special(static_cast<std::size_t>(cols), false);
      for (int j = 0; j < cols && static_cast<std::size_t>(j) < group.col_labels.size(); ++j) {
        special[static_cast<std::size_t>(j)] =
            isSpecialTokenLabel(group.col_labels[j], special_tokens);
      }
      const PatchGrid grid = patchGridOf(snapshot, cols);
      const PatchGrid* vit = grid.patch_size > 0 ? &grid : nullptr;
      for (int layer = 0; layer < group.layers; ++layer) {
        for (int head = 0; head < group.heads; ++head) {
          RowMeans means{};
          addRowMetrics(group, group.map(layer, head), self, vit, special, means);
          for (std::size_t m = 0; m < kMetricCount; ++m) {
            if (means[m].count == 0) continue;
            per_head[{group_index, layer, head, m}].add(means[m].sum / means[m].count);
          }
        }
      }
    }
  }
  std::vector<HeadStatistic> statistics;
  statistics.reserve(per_head.size());
  for (const auto& [key, mean] : per_head) {
    const auto& [group_index, layer, head, metric] = key;
    statistics.push_back(HeadStatistic{group_names[group_index], layer, head,
                                       kHeadMetrics[metric].name, mean.sum / mean.count});
  }
  return statistics;
}

}  // namespace ascope
