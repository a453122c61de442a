#include "engine/analysis/head_statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tests/data/attention_group_builder.h"

namespace ascope {
namespace {

// Every task's special tokens together, as the statistics counted them before tasks said which.
const std::vector<std::string> kSpecialTokens{"CLS",   "[CLS]", "[PAD]", "<pad>",
                                              "[SOS]", "[EOS]", "[SEP]"};

using testing::groupOf;
using testing::mapOf;
using testing::snapshotOf;

std::optional<double> valueOf(const std::vector<HeadStatistic>& stats, const std::string& group,
                              int layer, int head, const std::string& metric) {
  for (const HeadStatistic& s : stats) {
    if (s.group == group && s.layer == layer && s.head == head && s.metric == metric) {
      return s.value;
    }
  }
  return std::nullopt;
}

std::set<std::string> metricsOf(const std::vector<HeadStatistic>& stats, const std::string& group,
                                int layer, int head) {
  std::set<std::string> metrics;
  for (const HeadStatistic& s : stats) {
    if (s.group == group && s.layer == layer && s.head == head) metrics.insert(s.metric);
  }
  return metrics;
}

#define EXPECT_METRIC(stats, group, layer, head, metric, expected)                   \
  do {                                                                               \
    const std::optional<double> value_ = valueOf(stats, group, layer, head, metric); \
    ASSERT_TRUE(value_.has_value()) << metric;                                       \
    EXPECT_NEAR(*value_, expected, 1e-6) << metric;                                  \
  } while (false)

TEST(HeadStatistics, MetricListNamesEachOnceWithADescription) {
  std::set<std::string> names;
  for (const HeadMetricInfo& metric : kHeadMetrics) {
    names.insert(metric.name);
    EXPECT_GT(std::string(metric.description).size(), 10u) << metric.name;
    EXPECT_EQ(metric.unit_range, std::string(metric.name) != "distance") << metric.name;
  }
  EXPECT_EQ(names,
            (std::set<std::string>{"entropy", "distance", "special_mass", "first_token_mass",
                                   "max_weight", "diagonal", "previous_token", "next_token"}));
  ASSERT_NE(findHeadMetric("previous_token"), nullptr);
  EXPECT_STREQ(findHeadMetric("previous_token")->name, "previous_token");
  EXPECT_EQ(findHeadMetric("previous"), nullptr);
  EXPECT_TRUE(isSpecialTokenLabel("[SOS]", kSpecialTokens));
  EXPECT_TRUE(isSpecialTokenLabel("CLS", kSpecialTokens));
  EXPECT_FALSE(isSpecialTokenLabel("[UNK]", kSpecialTokens));
  EXPECT_FALSE(isSpecialTokenLabel("cls", kSpecialTokens));
}

// Four tokens, every row uniform over all four keys:
//   entropy  log 4 / log 4 = 1 on every row
//   distance rows 0..3: (0+1+2+3)/4 = 1.5, (1+0+1+2)/4 = 1, 1, 1.5 → mean 1.25
//   every single weight .25
TEST(HeadStatistics, UniformRowsHaveEntropyOne) {
  const float q = .25f;
  const std::vector<std::vector<float>> rows(4, std::vector<float>{q, q, q, q});
  const auto stats =
      headStatistics({snapshotOf(groupOf("encoder", 1, 1, {mapOf(rows)}))}, kSpecialTokens);
  EXPECT_METRIC(stats, "encoder", 0, 0, "entropy", 1.0);
  EXPECT_METRIC(stats, "encoder", 0, 0, "distance", 1.25);
  for (const char* metric :
       {"first_token_mass", "max_weight", "diagonal", "previous_token", "next_token"}) {
    EXPECT_METRIC(stats, "encoder", 0, 0, metric, .25);
  }
  // No key is a special token: special_mass is not defined, not 0.
  EXPECT_FALSE(valueOf(stats, "encoder", 0, 0, "special_mass").has_value());
  // Listed in kHeadMetrics order.
  ASSERT_EQ(stats.size(), 7u);
  EXPECT_EQ(stats[0].metric, "entropy");
  EXPECT_EQ(stats[1].metric, "distance");
  EXPECT_EQ(stats[6].metric, "next_token");
}

// Causal, uniform over what each row sees; row 0 sees one key and counts for nothing:
//   entropy  rows 1..3: log(i+1)/log(i+1) = 1
//   distance row 1 (1+0)/2 = .5, row 2 (2+1+0)/3 = 1, row 3 (3+2+1+0)/4 = 1.5 → 1
//   max, diagonal, previous, first, special ([SOS] at 0): (1/2 + 1/3 + 1/4)/3 = 13/36
TEST(HeadStatistics, CausalRowsSeeOnlyTheirPast) {
  AttentionGroup group = groupOf("decoder self", 1, 1,
                                 {mapOf({{1, 0, 0, 0},
                                         {.5f, .5f, 0, 0},
                                         {1.f / 3, 1.f / 3, 1.f / 3, 0},
                                         {.25f, .25f, .25f, .25f}})},
                                 {"[SOS]", "il", "gatto", "nero"});
  group.causal = true;
  const auto stats = headStatistics({snapshotOf(group)}, kSpecialTokens);
  EXPECT_METRIC(stats, "decoder self", 0, 0, "entropy", 1.0);
  EXPECT_METRIC(stats, "decoder self", 0, 0, "distance", 1.0);
  for (const char* metric :
       {"max_weight", "diagonal", "previous_token", "first_token_mass", "special_mass"}) {
    EXPECT_METRIC(stats, "decoder self", 0, 0, metric, 13.0 / 36);
  }
  EXPECT_FALSE(valueOf(stats, "decoder self", 0, 0, "next_token").has_value())
      << "a causal row never sees the next token";
}

// Causal, each row all on the token before it (row 0, seeing only itself, is left out):
//   previous_token 1, distance 1, entropy 0, max 1, diagonal 0;
//   first_token_mass and special_mass ([SOS]): rows 1, 2, 3 put 1, 0, 0 on key 0 → 1/3
TEST(HeadStatistics, OneHotPreviousTokenHead) {
  AttentionGroup group = groupOf("decoder self", 1, 1,
                                 {mapOf({{1, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}})},
                                 {"[SOS]", "il", "gatto", "nero"});
  group.causal = true;
  const auto stats = headStatistics({snapshotOf(group)}, kSpecialTokens);
  EXPECT_METRIC(stats, "decoder self", 0, 0, "previous_token", 1.0);
  EXPECT_METRIC(stats, "decoder self", 0, 0, "distance", 1.0);
  EXPECT_METRIC(stats, "decoder self", 0, 0, "entropy", 0.0);
  EXPECT_METRIC(stats, "decoder self", 0, 0, "max_weight", 1.0);
  EXPECT_METRIC(stats, "decoder self", 0, 0, "diagonal", 0.0);
  EXPECT_METRIC(stats, "decoder self", 0, 0, "first_token_mass", 1.0 / 3);
  EXPECT_METRIC(stats, "decoder self", 0, 0, "special_mass", 1.0 / 3);
}

// A ViT with 2×2 patches of 4 pixels: CLS, then patches 0 1 / 2 3 with centres (2,2) (6,2)
// (2,6) (6,6). Head 0: each patch .4 on CLS and .6 on its horizontal neighbour: renormalised over
// the patches, all on a patch 4 px away. Head 1: .6 on the diagonal neighbour, 4√2 px away.
// CLS's row (uniform) and column count for no distance.
TEST(HeadStatistics, VitDistancesAreInPixelsBetweenPatchCentres) {
  const float u = .2f;
  const std::vector<float> cls_row{u, u, u, u, u};
  AttentionGroup group = groupOf("encoder", 1, 2,
                                 {mapOf({cls_row,
                                         {.4f, 0, .6f, 0, 0},
                                         {.4f, .6f, 0, 0, 0},
                                         {.4f, 0, 0, 0, .6f},
                                         {.4f, 0, 0, .6f, 0}}),
                                  mapOf({cls_row,
                                         {.4f, 0, 0, 0, .6f},
                                         {.4f, 0, 0, .6f, 0},
                                         {.4f, 0, .6f, 0, 0},
                                         {.4f, .6f, 0, 0, 0}})},
                                 {"CLS", "0", "1", "2", "3"});
  AttentionSnapshot snapshot = snapshotOf(group);
  ImagePayload grid;
  grid.patch_size = 4;
  grid.grid_rows = grid.grid_cols = 2;
  snapshot.payloads.put(makePayload(grid));
  const auto stats = headStatistics({snapshot}, kSpecialTokens);
  EXPECT_METRIC(stats, "encoder", 0, 0, "distance", 4.0);
  EXPECT_METRIC(stats, "encoder", 0, 1, "distance", 4.0 * std::sqrt(2.0));
  // CLS is both the first token and special: (.2 + 4 · .4) / 5 = .36
  EXPECT_METRIC(stats, "encoder", 0, 0, "first_token_mass", .36);
  EXPECT_METRIC(stats, "encoder", 0, 0, "special_mass", .36);

  // A grid that does not account for the tokens places no patch: no distance at all.
  grid.grid_cols = 3;
  snapshot.payloads.put(makePayload(grid));
  EXPECT_FALSE(
      valueOf(headStatistics({snapshot}, kSpecialTokens), "encoder", 0, 0, "distance").has_value());
}

// Sample A: 2 tokens "x y", uniform. Sample B: 4 tokens "[CLS] a b c", each on itself.
//   entropy (1 + 0)/2 = .5; diagonal and max_weight (.5 + 1)/2 = .75; distance (.5 + 0)/2 = .25;
//   previous_token (.5 + 0)/2 = .25 and next_token (.5 + 0)/2 = .25;
//   special_mass: A has no special key and does not count; B: row 0 puts 1 on [CLS] → 1/4.
TEST(HeadStatistics, SamplesOfDifferentLengthsAverageTheirOwnMeans) {
  const AttentionSnapshot a =
      snapshotOf(groupOf("encoder", 1, 1, {mapOf({{.5f, .5f}, {.5f, .5f}})}, {"x", "y"}));
  const AttentionSnapshot b = snapshotOf(
      groupOf("encoder", 1, 1, {mapOf({{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}})},
              {"[CLS]", "a", "b", "c"}));
  const auto stats = headStatistics({a, b}, kSpecialTokens);
  EXPECT_METRIC(stats, "encoder", 0, 0, "entropy", .5);
  EXPECT_METRIC(stats, "encoder", 0, 0, "diagonal", .75);
  EXPECT_METRIC(stats, "encoder", 0, 0, "max_weight", .75);
  EXPECT_METRIC(stats, "encoder", 0, 0, "distance", .25);
  EXPECT_METRIC(stats, "encoder", 0, 0, "previous_token", .25);
  EXPECT_METRIC(stats, "encoder", 0, 0, "next_token", .25);
  EXPECT_METRIC(stats, "encoder", 0, 0, "special_mass", .25);
  EXPECT_METRIC(stats, "encoder", 0, 0, "first_token_mass", (.5 + .25) / 2);
}

// Cross attention, 2 target queries onto 3 source keys "the cat [EOS]":
//   entropy   row 0: −(.2 ln .2 + .3 ln .3 + .5 ln .5)/ln 3, row 1: −(.6 ln .6 + 2 · .2 ln .2)/ln 3
//   first .4, max (.5 + .6)/2 = .55, special (.5 + .2)/2 = .35; nothing positional
TEST(HeadStatistics, CrossAttentionGetsOnlyTheMetricsThatNeedNoSharedPositions) {
  const AttentionGroup cross =
      groupOf("cross", 1, 1, {mapOf({{.2f, .3f, .5f}, {.6f, .2f, .2f}})}, {"the", "cat", "[EOS]"});
  const auto stats = headStatistics({snapshotOf(cross)}, kSpecialTokens);
  EXPECT_EQ(metricsOf(stats, "cross", 0, 0),
            (std::set<std::string>{"entropy", "special_mass", "first_token_mass", "max_weight"}));
  const double row0 = -(.2 * std::log(.2) + .3 * std::log(.3) + .5 * std::log(.5)) / std::log(3);
  const double row1 = -(.6 * std::log(.6) + 2 * .2 * std::log(.2)) / std::log(3);
  EXPECT_METRIC(stats, "cross", 0, 0, "entropy", (row0 + row1) / 2);
  EXPECT_METRIC(stats, "cross", 0, 0, "first_token_mass", .4);
  EXPECT_METRIC(stats, "cross", 0, 0, "max_weight", .55);
  EXPECT_METRIC(stats, "cross", 0, 0, "special_mass", .35);

  // Square cross attention (as many source as target tokens) is still not self-attention.
  const AttentionGroup square = groupOf(
      "cross", 1, 1, {mapOf({{.5f, .5f, 0}, {0, .5f, .5f}, {.5f, 0, .5f}})}, {"a", "b", "c"});
  EXPECT_EQ(metricsOf(headStatistics({snapshotOf(square)}, kSpecialTokens), "cross", 0, 0),
            (std::set<std::string>{"entropy", "first_token_mass", "max_weight"}));
}

TEST(HeadStatistics, GroupsComeInTheOrderTheyFirstAppearAndMalformedOnesAreSkipped) {
  const std::vector<std::vector<float>> uniform(2, std::vector<float>{.5f, .5f});
  AttentionSnapshot snapshot;
  snapshot.groups.push_back(groupOf("encoder self", 1, 2, {mapOf(uniform), mapOf(uniform)}));
  snapshot.groups.push_back(groupOf("decoder self", 2, 1, {mapOf(uniform), mapOf(uniform)}));
  snapshot.groups.push_back(groupOf("broken", 2, 1, {mapOf(uniform)}));  // one map for two
  const auto stats = headStatistics({snapshot}, kSpecialTokens);
  ASSERT_FALSE(stats.empty());
  EXPECT_EQ(stats.front().group, "encoder self");
  EXPECT_EQ(stats.back().group, "decoder self");
  EXPECT_EQ(stats.back().layer, 1);
  for (const HeadStatistic& s : stats) EXPECT_NE(s.group, "broken");
  EXPECT_EQ(metricsOf(stats, "encoder self", 0, 1).size(), 7u) << "all but special_mass";
}

}  // namespace
}  // namespace ascope
