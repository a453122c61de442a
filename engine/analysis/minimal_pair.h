#pragma once
// Minimal pairs: two inputs that differ in one place (a word replaced, split into pieces,
// inserted or dropped; an image with one patch occluded) and their attention compared head by
// head, on rows and columns lined up so that each means the same token on both sides. Plain data
// in and out, no shared state: safe to call on any thread (on the worker that asked the model
// both questions, so the GUI thread gets the finished comparison).
#include <string>
#include <vector>

#include "engine/analysis/token_alignment.h"
#include "engine/vocabulary/attention_snapshot.h"

namespace ascope {

/// One axis of a group (its queries or its keys), lined up across the pair.
struct AlignedTokens {
  TokenAlignment alignment;
  /// The prefix's labels, one label for the changed span ("big → small"; "∅ → very" where a
  /// token was inserted; "7 (occluded)" for an image's patch), the suffix's labels.
  std::vector<std::string> labels;
};

/// How one head's attention moved from input a to input b.
struct HeadChange {
  std::string group;
  int layer = 0;  ///< from 0, as the rest of the program numbers layers
  int head = 0;   ///< from 0
  /// The mean over the lined-up query rows of the total-variation distance 0.5 · Σ_k |b − a|: 0
  /// when the head attends alike, 1 when no row shares any weight. A masked cell weighs 0; a row
  /// without weights on one side (the changed span's row where that side's span is empty) is left
  /// out.
  double change = 0;
  int most_changed_row = -1;       ///< lined-up query row with the largest distance; -1: none
  std::string most_changed_query;  ///< its label
  double most_changed_distance = 0;
};

/// One head on the lined-up tokens (rows: queries, columns: keys). The changed span's row is the
/// mean of the span's rows and its column the sum of the span's keys, so every row still sums to
/// 1 on each side; a side whose span is empty has NaN in that row (no such query) and 0 in that
/// column (no such key). A masked cell (NaN) stays NaN.
struct AlignedHead {
  HeadChange change;
  AttentionMap a;
  AttentionMap b;
  AttentionMap difference;  ///< b − a; NaN where either side is NaN
};

struct AlignedGroup {
  std::string name;
  int layers = 0;
  int heads = 0;
  AlignedTokens queries;
  AlignedTokens keys;
  std::vector<AlignedHead> maps;  ///< layers × heads, index layer * heads + head
};

struct MinimalPairComparison {
  /// Why the two snapshots cannot be compared, naming what differs ("a has 1 attention group,
  /// b has 3"); "" when they can. `groups` is empty when it is set.
  std::string problem;
  std::vector<AlignedGroup> groups;
};

/// Compares input a's attention with input b's, group by group. `occluded_patch` -1: two texts,
/// their tokens lined up by common prefix and suffix (queries and keys each by their own labels,
/// so a translation's decoder and cross attention line up too). Otherwise an image and the same
/// image with that patch occluded (from 0, row-major over the grid, as the patch labels count):
/// the tokens must be the same, and the changed one is the patch's.
MinimalPairComparison compareMinimalPair(const AttentionSnapshot& a, const AttentionSnapshot& b,
                                         int occluded_patch = -1);

/// Every head of every group, the most changed first (ties keep group, layer and head order).
struct HeadChangeRanking {
  std::string problem;  ///< MinimalPairComparison::problem; `heads` is empty when it is set
  std::vector<HeadChange> heads;
};

HeadChangeRanking rankHeadChanges(const MinimalPairComparison& comparison);

}  // namespace ascope
