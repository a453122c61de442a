#include "engine/analysis/minimal_pair.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "tests/data/attention_group_builder.h"

namespace ascope {
namespace {

using testing::mapOf;
using Tokens = std::vector<std::string>;
using Rows = std::vector<std::vector<float>>;

const float kMasked = std::numeric_limits<float>::quiet_NaN();

/// A group of one layer whose heads are `maps`, queries and keys labelled as given.
AttentionGroup labelledGroup(const std::string& name, Tokens queries, Tokens keys,
                             std::vector<AttentionMap> maps, bool causal = false) {
  AttentionGroup group;
  group.name = name;
  group.layers = 1;
  group.heads = static_cast<int>(maps.size());
  group.row_labels = std::move(queries);
  group.col_labels = std::move(keys);
  group.causal = causal;
  group.maps = std::move(maps);
  return group;
}

/// A self-attention group of one layer and one head over `tokens`.
AttentionSnapshot textPair(const Tokens& tokens, const Rows& rows, bool causal = false) {
  return testing::snapshotOf(
      labelledGroup(causal ? "decoder self" : "encoder", tokens, tokens, {mapOf(rows)}, causal));
}

/// `map` holds `rows` cell by cell (NaN where `rows` has NaN).
void expectCells(const AttentionMap& map, const Rows& rows) {
  ASSERT_EQ(map.rows, static_cast<int>(rows.size()));
  for (int r = 0; r < map.rows; ++r) {
    ASSERT_EQ(map.cols, static_cast<int>(rows[static_cast<std::size_t>(r)].size()));
    for (int c = 0; c < map.cols; ++c) {
      const float expected = rows[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
      const float got = map.values[static_cast<std::size_t>(r) * map.cols + c];
      if (std::isnan(expected)) {
        EXPECT_TRUE(std::isnan(got)) << "row " << r << " col " << c << ": " << got;
      } else {
        EXPECT_NEAR(got, expected, 1e-6) << "row " << r << " col " << c;
      }
    }
  }
}

/// The one head of the comparison's first group, after checking it compared.
const AlignedHead& onlyHead(const MinimalPairComparison& comparison) {
  EXPECT_EQ(comparison.problem, "");
  EXPECT_EQ(comparison.groups.size(), 1u);
  EXPECT_EQ(comparison.groups.at(0).maps.size(), 1u);
  return comparison.groups.at(0).maps.at(0);
}

TEST(MinimalPair, AReplacedTokenIsComparedRowByRow) {
  const AttentionSnapshot a =
      textPair({"the", "big", "dog"}, {{.5f, .3f, .2f}, {.2f, .6f, .2f}, {.1f, .1f, .8f}});
  const AttentionSnapshot b =
      textPair({"the", "small", "dog"}, {{.5f, .1f, .4f}, {.2f, .6f, .2f}, {.1f, .5f, .4f}});
  const MinimalPairComparison comparison = compareMinimalPair(a, b);
  const AlignedHead& head = onlyHead(comparison);
  const Tokens labels{"the", "big → small", "dog"};
  EXPECT_EQ(comparison.groups[0].queries.labels, labels);
  EXPECT_EQ(comparison.groups[0].keys.labels, labels);
  expectCells(head.difference, {{0, -.2f, .2f}, {0, 0, 0}, {0, .4f, -.4f}});
  // Distances 0.2, 0 and 0.4: their mean, and "dog" moved most.
  EXPECT_NEAR(head.change.change, 0.2, 1e-6);
  EXPECT_EQ(head.change.most_changed_row, 2);
  EXPECT_EQ(head.change.most_changed_query, "dog");
  EXPECT_NEAR(head.change.most_changed_distance, 0.4, 1e-6);
  EXPECT_EQ(head.change.group, "encoder");
}

TEST(MinimalPair, AWordSplitIntoTwoPiecesIsOneMergedRowAndColumn) {
  const AttentionSnapshot a =
      textPair({"a", "good", "film"}, {{.6f, .2f, .2f}, {.3f, .4f, .3f}, {.1f, .3f, .6f}});
  const AttentionSnapshot b = textPair(
      {"a", "wonder", "##ful", "film"},
      {{.6f, .1f, .1f, .2f}, {.2f, .3f, .3f, .2f}, {.4f, .1f, .1f, .4f}, {.1f, .2f, .2f, .5f}});
  const MinimalPairComparison comparison = compareMinimalPair(a, b);
  const AlignedHead& head = onlyHead(comparison);
  EXPECT_EQ(comparison.groups[0].queries.labels, (Tokens{"a", "good → wonder ##ful", "film"}));
  // The pieces' keys add up (.1 + .1); their rows are averaged ((.2 + .4) / 2, …).
  expectCells(head.b, {{.6f, .2f, .2f}, {.3f, .4f, .3f}, {.1f, .4f, .5f}});
  expectCells(head.a, {{.6f, .2f, .2f}, {.3f, .4f, .3f}, {.1f, .3f, .6f}});
  for (int r = 0; r < head.b.rows; ++r) {
    float sum = 0;
    for (int c = 0; c < head.b.cols; ++c) sum += head.b.values[static_cast<std::size_t>(r) * 3 + c];
    EXPECT_NEAR(sum, 1.0f, 1e-6) << "row " << r;
  }
  EXPECT_NEAR(head.change.change, 0.1 / 3, 1e-6);
  EXPECT_EQ(head.change.most_changed_query, "film");
}

TEST(MinimalPair, AnInsertedTokenHasNoQueryOnTheOtherSide) {
  const AttentionSnapshot a = textPair({"a", "film"}, {{.7f, .3f}, {.4f, .6f}});
  const AttentionSnapshot b =
      textPair({"a", "very", "film"}, {{.7f, .1f, .2f}, {.3f, .3f, .4f}, {.2f, .5f, .3f}});
  const MinimalPairComparison comparison = compareMinimalPair(a, b);
  const AlignedHead& head = onlyHead(comparison);
  EXPECT_EQ(comparison.groups[0].queries.labels, (Tokens{"a", "∅ → very", "film"}));
  // a has no such query (NaN) and gave no weight to such a key (0).
  expectCells(head.a, {{.7f, 0, .3f}, {kMasked, kMasked, kMasked}, {.4f, 0, .6f}});
  expectCells(head.difference, {{0, .1f, -.1f}, {kMasked, kMasked, kMasked}, {-.2f, .5f, -.3f}});
  // Only the rows both sides have count: (0.1 + 0.5) / 2.
  EXPECT_NEAR(head.change.change, 0.3, 1e-6);
  EXPECT_EQ(head.change.most_changed_query, "film");
  EXPECT_NEAR(head.change.most_changed_distance, 0.5, 1e-6);
  // The other way round the same token was dropped.
  const MinimalPairComparison dropped = compareMinimalPair(b, a);
  EXPECT_EQ(dropped.groups.at(0).queries.labels, (Tokens{"a", "very → ∅", "film"}));
  EXPECT_NEAR(dropped.groups[0].maps.at(0).change.change, 0.3, 1e-6);
}

TEST(MinimalPair, MaskedCellsStayMaskedAndWeighNothingInAMerge) {
  const AttentionSnapshot a =
      textPair({"[SOS]", "good", "film"},
               {{1, kMasked, kMasked}, {.4f, .6f, kMasked}, {.2f, .3f, .5f}}, /*causal=*/true);
  const AttentionSnapshot b = textPair({"[SOS]", "wonder", "##ful", "film"},
                                       {{1, kMasked, kMasked, kMasked},
                                        {.5f, .5f, kMasked, kMasked},
                                        {.2f, .3f, .5f, kMasked},
                                        {.1f, .2f, .3f, .4f}},
                                       /*causal=*/true);
  const MinimalPairComparison comparison = compareMinimalPair(a, b);
  const AlignedHead& head = onlyHead(comparison);
  // The pieces' row: "wonder" cannot see "##ful", which counts as no weight: (.5 + .3 + .5) / 2.
  // A cell every merged cell of which is masked stays masked.
  expectCells(head.b, {{1, kMasked, kMasked}, {.35f, .65f, kMasked}, {.1f, .5f, .4f}});
  expectCells(head.difference, {{0, kMasked, kMasked}, {-.05f, .05f, kMasked}, {-.1f, .2f, -.1f}});
  EXPECT_NEAR(head.change.change, (0 + .05 + .2) / 3, 1e-6);
}

TEST(MinimalPair, IdenticalInputsDoNotChange) {
  const Rows rows{{.5f, .5f, 0}, {.1f, .8f, .1f}, {.3f, .3f, .4f}};
  const AttentionSnapshot a = textPair({"x", "y", "z"}, rows);
  const MinimalPairComparison comparison = compareMinimalPair(a, a);
  const AlignedHead& head = onlyHead(comparison);
  EXPECT_EQ(comparison.groups[0].queries.labels, (Tokens{"x", "y", "z"}));
  EXPECT_FALSE(comparison.groups[0].queries.alignment.changed());
  expectCells(head.a, rows);
  expectCells(head.difference, {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}});
  EXPECT_EQ(head.change.change, 0.0);
  EXPECT_EQ(head.change.most_changed_distance, 0.0);
}

TEST(MinimalPair, CrossAttentionLinesUpQueriesAndKeysEachByItsOwnTokens) {
  // The source changed a word; the translation changed one and grew one.
  const AttentionSnapshot a = testing::snapshotOf(
      labelledGroup("cross", {"[SOS]", "il", "cane"}, {"the", "big", "dog"},
                    {mapOf({{.2f, .4f, .4f}, {.3f, .3f, .4f}, {.1f, .1f, .8f}})}));
  const AttentionSnapshot b = testing::snapshotOf(
      labelledGroup("cross", {"[SOS]", "il", "gatto", "nero"}, {"the", "small", "cat"},
                    {mapOf({{.2f, .4f, .4f}, {.3f, .3f, .4f}, {.1f, .5f, .4f}, {.1f, .3f, .6f}})}));
  const MinimalPairComparison comparison = compareMinimalPair(a, b);
  const AlignedHead& head = onlyHead(comparison);
  EXPECT_EQ(comparison.groups[0].queries.labels, (Tokens{"[SOS]", "il", "cane → gatto nero"}));
  EXPECT_EQ(comparison.groups[0].keys.labels, (Tokens{"the", "big dog → small cat"}));
  // The keys' span merges two columns: "[SOS]" gives it .8 on both sides.
  expectCells(head.b, {{.2f, .8f}, {.3f, .7f}, {.1f, .9f}});
  expectCells(head.a, {{.2f, .8f}, {.3f, .7f}, {.1f, .9f}});
  EXPECT_EQ(head.change.change, 0.0);
}

TEST(MinimalPair, AnOccludedPatchIsTheChangedTokenOfOneImage) {
  const Tokens patches{"CLS", "0", "1", "2", "3"};
  Rows rows_a(5, std::vector<float>(5, .2f));
  Rows rows_b = rows_a;
  rows_b[3] = {.6f, .1f, .1f, 0, .2f};  // patch 2's query
  const AttentionSnapshot a =
      testing::snapshotOf(labelledGroup("encoder", patches, patches, {mapOf(rows_a)}));
  const AttentionSnapshot b =
      testing::snapshotOf(labelledGroup("encoder", patches, patches, {mapOf(rows_b)}));
  const MinimalPairComparison comparison = compareMinimalPair(a, b, 2);
  const AlignedHead& head = onlyHead(comparison);
  EXPECT_EQ(comparison.groups[0].queries.labels, (Tokens{"CLS", "0", "1", "2 (occluded)", "3"}));
  EXPECT_EQ(comparison.groups[0].keys.alignment.changedPosition(), 3);
  expectCells(head.a, rows_a);
  expectCells(head.b, rows_b);
  EXPECT_EQ(head.change.most_changed_query, "2 (occluded)");
  EXPECT_NEAR(head.change.most_changed_distance, .4, 1e-6);
  EXPECT_NEAR(head.change.change, .4 / 5, 1e-6);
  // Text alignment would not see the patch: the labels are the same.
  EXPECT_FALSE(compareMinimalPair(a, b).groups.at(0).queries.alignment.changed());

  const MinimalPairComparison missing = compareMinimalPair(a, b, 4);
  EXPECT_EQ(missing.problem, "occluded patch 4 is not among the 5 tokens of \"encoder\"");
  EXPECT_TRUE(missing.groups.empty());
}

TEST(MinimalPair, HeadsAreRankedMostChangedFirst) {
  const Tokens tokens{"p", "q"};
  const AttentionMap still = mapOf({{.5f, .5f}, {.5f, .5f}});
  auto group = [&](const std::string& name, std::vector<AttentionMap> maps) {
    return labelledGroup(name, tokens, tokens, std::move(maps));
  };
  AttentionSnapshot a;
  a.groups = {group("encoder", {still, still, still}), group("cross", {still})};
  AttentionSnapshot b;
  b.groups = {group("encoder", {still, mapOf({{.6f, .4f}, {.5f, .5f}}), mapOf({{1, 0}, {0, 1}})}),
              group("cross", {mapOf({{.6f, .4f}, {.5f, .5f}})})};
  const HeadChangeRanking ranking = rankHeadChanges(compareMinimalPair(a, b));
  EXPECT_EQ(ranking.problem, "");
  ASSERT_EQ(ranking.heads.size(), 4u);
  EXPECT_EQ(ranking.heads[0].group, "encoder");
  EXPECT_EQ(ranking.heads[0].head, 2);
  EXPECT_NEAR(ranking.heads[0].change, .5, 1e-6);
  // A tie keeps the groups' order.
  EXPECT_EQ(ranking.heads[1].group, "encoder");
  EXPECT_EQ(ranking.heads[1].head, 1);
  EXPECT_EQ(ranking.heads[2].group, "cross");
  EXPECT_NEAR(ranking.heads[2].change, ranking.heads[1].change, 1e-9);
  EXPECT_EQ(ranking.heads[3].change, 0.0);
}

TEST(MinimalPair, ShapesThatCannotBeComparedAreNamed) {
  const Tokens tokens{"p", "q"};
  const AttentionMap map = mapOf({{.5f, .5f}, {.5f, .5f}});
  const AttentionSnapshot one =
      testing::snapshotOf(labelledGroup("encoder", tokens, tokens, {map}));
  AttentionSnapshot two_groups = one;
  two_groups.groups.push_back(labelledGroup("cross", tokens, tokens, {map}));
  EXPECT_EQ(compareMinimalPair(one, two_groups).problem, "a has 1 attention group, b has 2");

  AttentionSnapshot more_heads =
      testing::snapshotOf(labelledGroup("encoder", tokens, tokens, {map, map}));
  const HeadChangeRanking ranking = rankHeadChanges(compareMinimalPair(one, more_heads));
  EXPECT_EQ(ranking.problem, "\"encoder\": a has 1 layer × 1 head, b has 1 layer × 2 heads");
  EXPECT_TRUE(ranking.heads.empty());

  AttentionSnapshot renamed = one;
  renamed.groups[0].name = "encoder self";
  EXPECT_EQ(compareMinimalPair(one, renamed).problem,
            "attention group 0 is \"encoder\" in a and \"encoder self\" in b");

  AttentionSnapshot short_labels = one;
  short_labels.groups[0].row_labels.pop_back();
  EXPECT_EQ(compareMinimalPair(one, short_labels).problem,
            "b: \"encoder\": 1 query and 2 key labels for maps of 2×2");

  AttentionSnapshot torn = one;
  torn.groups[0].maps[0].values.pop_back();
  EXPECT_EQ(compareMinimalPair(torn, one).problem.rfind("a: \"encoder\": map 0 is 2×2 with 3", 0),
            0u)
      << compareMinimalPair(torn, one).problem;

  EXPECT_EQ(compareMinimalPair(AttentionSnapshot{}, AttentionSnapshot{}).problem,
            "a has 0 attention groups, b has 0");
}

}  // namespace
}  // namespace ascope
