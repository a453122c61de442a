#include "engine/analysis/minimal_pair.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>

#include "engine/analysis/attention_group_shape.h"

namespace ascope {
namespace {

constexpr float kNoWeight = std::numeric_limits<float>::quiet_NaN();

/// The tokens of one side's changed span as one label: "big", "wonder ##ful", or "∅" for none.
std::string spanLabel(const std::vector<std::string>& tokens, int first, int count) {
  if (count == 0) return "∅";
  std::string label;
  for (int i = first; i < first + count; ++i) {
    label += (i == first ? "" : " ") + tokens[static_cast<std::size_t>(i)];
  }
  return label;
}

/// `alignment`'s lined-up labels, the changed span's named by `changed_label`.
AlignedTokens alignedTokens(const TokenAlignment& alignment, const std::vector<std::string>& a,
                            const std::string& changed_label) {
  AlignedTokens out;
  out.alignment = alignment;
  for (int p = 0; p < alignment.alignedCount(); ++p) {
    out.labels.push_back(p == alignment.changedPosition()
                             ? changed_label
                             : a[static_cast<std::size_t>(alignment.firstToken(p, false))]);
  }
  return out;
}

/// A text pair's axis: the changed span named "a's tokens → b's tokens".
AlignedTokens alignedText(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  const TokenAlignment t = alignTokens(a, b);
  return alignedTokens(
      t, a, spanLabel(a, t.prefix, t.a_changed) + " → " + spanLabel(b, t.prefix, t.b_changed));
}

/// One side's map on the lined-up tokens. A lined-up cell is the mean over its source rows of the
/// sum over its source columns: a merged row averages the span's queries, a merged column adds up
/// the weight the span's keys got, so rows keep summing to 1. A masked source cell weighs 0
/// unless every cell merged is masked (the cell stays masked).
AttentionMap alignedMap(const AttentionMap& map, const TokenAlignment& rows,
                        const TokenAlignment& cols, bool side_b) {
  AttentionMap out;
  out.rows = rows.alignedCount();
  out.cols = cols.alignedCount();
  out.values.assign(static_cast<std::size_t>(out.rows) * out.cols, kNoWeight);
  for (int r = 0; r < out.rows; ++r) {
    const int first_row = rows.firstToken(r, side_b);
    const int row_count = rows.tokenCount(r, side_b);
    if (row_count == 0) continue;  // no such query on this side
    for (int c = 0; c < out.cols; ++c) {
      const int first_col = cols.firstToken(c, side_b);
      const int col_count = cols.tokenCount(c, side_b);
      double sum = 0;
      bool any = col_count == 0;  // no such key: it got nothing
      for (int i = first_row; i < first_row + row_count; ++i) {
        for (int j = first_col; j < first_col + col_count; ++j) {
          const float v = map.values[static_cast<std::size_t>(i) * map.cols + j];
          if (std::isnan(v)) continue;
          sum += v;
          any = true;
        }
      }
      if (any)
        out.values[static_cast<std::size_t>(r) * out.cols + c] =
            static_cast<float>(sum / row_count);
    }
  }
  return out;
}

/// b − a cell by cell, NaN where either is.
AttentionMap differenceOf(const AttentionMap& a, const AttentionMap& b) {
  AttentionMap out{a.rows, a.cols, std::vector<float>(a.values.size(), kNoWeight)};
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    if (!std::isnan(a.values[i]) && !std::isnan(b.values[i]))
      out.values[i] = b.values[i] - a.values[i];
  }
  return out;
}

bool hasWeights(const float* row, int cols) {
  return std::any_of(row, row + cols, [](float v) { return !std::isnan(v); });
}

/// The change of one lined-up head: each query row's total-variation distance, a masked cell
/// weighing 0; rows without weights on a side are not compared.
HeadChange changeOf(const AlignedGroup& group, int layer, int head, const AttentionMap& a,
                    const AttentionMap& b) {
  HeadChange change;
  change.group = group.name;
  change.layer = layer;
  change.head = head;
  double total = 0;
  int compared = 0;
  for (int r = 0; r < a.rows; ++r) {
    const float* row_a = a.values.data() + static_cast<std::size_t>(r) * a.cols;
    const float* row_b = b.values.data() + static_cast<std::size_t>(r) * b.cols;
    if (!hasWeights(row_a, a.cols) || !hasWeights(row_b, b.cols)) continue;
    double distance = 0;
    for (int c = 0; c < a.cols; ++c) {
      const double wa = std::isnan(row_a[c]) ? 0.0 : row_a[c];
      const double wb = std::isnan(row_b[c]) ? 0.0 : row_b[c];
      distance += std::abs(wb - wa);
    }
    distance *= 0.5;
    total += distance;
    ++compared;
    if (change.most_changed_row < 0 || distance > change.most_changed_distance) {
      change.most_changed_row = r;
      change.most_changed_distance = distance;
    }
  }
  change.change = compared > 0 ? total / compared : 0.0;
  if (change.most_changed_row >= 0) {
    change.most_changed_query =
        group.queries.labels[static_cast<std::size_t>(change.most_changed_row)];
  }
  return change;
}

std::string quotedName(const std::string& name) {
  return "\"" + name + "\"";
}

/// "1 layer", "2 layers".
std::string countedNoun(std::size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

/// "2 layers × 4 heads".
std::string layersByHeads(const AttentionGroup& group) {
  return countedNoun(static_cast<std::size_t>(std::max(0, group.layers)), "layer") + " × " +
         countedNoun(static_cast<std::size_t>(std::max(0, group.heads)), "head");
}

/// Why group `ga` of a and `gb` of b cannot be compared; "" when they can.
std::string groupProblem(const AttentionGroup& ga, const AttentionGroup& gb, std::size_t index) {
  if (ga.name != gb.name) {
    return "attention group " + std::to_string(index) + " is " + quotedName(ga.name) +
           " in a and " + quotedName(gb.name) + " in b";
  }
  if (ga.layers != gb.layers || ga.heads != gb.heads) {
    return quotedName(ga.name) + ": a has " + layersByHeads(ga) + ", b has " + layersByHeads(gb);
  }
  for (const auto& [side, group] : {std::pair<const char*, const AttentionGroup*>{"a", &ga},
                                    std::pair<const char*, const AttentionGroup*>{"b", &gb}}) {
    const Status shape = checkAttentionGroupShape(*group);
    if (!shape.ok()) return std::string(side) + ": " + shape.error();
    const AttentionMap& map = group->maps.front();
    if (static_cast<std::size_t>(map.rows) != group->row_labels.size() ||
        static_cast<std::size_t>(map.cols) != group->col_labels.size()) {
      return std::string(side) + ": " + quotedName(group->name) + ": " +
             std::to_string(group->row_labels.size()) + " query and " +
             std::to_string(group->col_labels.size()) + " key labels for maps of " +
             std::to_string(map.rows) + "×" + std::to_string(map.cols);
    }
  }
  return "";
}

/// An image pair's axis: the same tokens, the occluded patch's the changed one.
AlignedTokens alignedPatches(const std::vector<std::string>& a, const std::vector<std::string>& b,
                             const std::string& group, int patch, std::string* problem) {
  const std::string label = std::to_string(patch);
  if (a != b) {
    *problem = "an occluded patch compares an image with itself, but " + quotedName(group) +
               " has other tokens in b than in a";
    return {};
  }
  const auto found = std::find(a.begin(), a.end(), label);
  if (found == a.end()) {
    *problem = "occluded patch " + label + " is not among the " + std::to_string(a.size()) +
               " tokens of " + quotedName(group);
    return {};
  }
  const int position = static_cast<int>(found - a.begin());
  return alignedTokens(alignChangedToken(static_cast<int>(a.size()), position), a,
                       label + " (occluded)");
}

}  // namespace

MinimalPairComparison compareMinimalPair(const AttentionSnapshot& a, const AttentionSnapshot& b,
                                         int occluded_patch) {
  MinimalPairComparison out;
  if (a.groups.empty() || a.groups.size() != b.groups.size()) {
    out.problem = "a has " + countedNoun(a.groups.size(), "attention group") + ", b has " +
                  std::to_string(b.groups.size());
    return out;
  }
  for (std::size_t g = 0; g < a.groups.size(); ++g) {
    const AttentionGroup& ga = a.groups[g];
    const AttentionGroup& gb = b.groups[g];
    out.problem = groupProblem(ga, gb, g);
    if (!out.problem.empty()) break;
    AlignedGroup group;
    group.name = ga.name;
    group.layers = ga.layers;
    group.heads = ga.heads;
    if (occluded_patch < 0) {
      group.queries = alignedText(ga.row_labels, gb.row_labels);
      group.keys = alignedText(ga.col_labels, gb.col_labels);
    } else {
      group.queries =
          alignedPatches(ga.row_labels, gb.row_labels, ga.name, occluded_patch, &out.problem);
      if (out.problem.empty()) {
        group.keys =
            alignedPatches(ga.col_labels, gb.col_labels, ga.name, occluded_patch, &out.problem);
      }
      if (!out.problem.empty()) break;
    }
    for (int layer = 0; layer < ga.layers; ++layer) {
      for (int head = 0; head < ga.heads; ++head) {
        AlignedHead aligned;
        aligned.a =
            alignedMap(ga.map(layer, head), group.queries.alignment, group.keys.alignment, false);
        aligned.b =
            alignedMap(gb.map(layer, head), group.queries.alignment, group.keys.alignment, true);
        aligned.difference = differenceOf(aligned.a, aligned.b);
        aligned.change = changeOf(group, layer, head, aligned.a, aligned.b);
        group.maps.push_back(std::move(aligned));
      }
    }
    out.groups.push_back(std::move(group));
  }
  if (!out.problem.empty()) out.groups.clear();
  return out;
}

HeadChangeRanking rankHeadChanges(const MinimalPairComparison& comparison) {
  HeadChangeRanking ranking;
  ranking.problem = comparison.problem;
  for (const AlignedGroup& group : comparison.groups) {
    for (const AlignedHead& head : group.maps) ranking.heads.push_back(head.change);
  }
  std::stable_sort(ranking.heads.begin(), ranking.heads.end(),
                   [](const HeadChange& x, const HeadChange& y) { return x.change > y.change; });
  return ranking;
}

}  // namespace ascope
