#include "engine/analysis/attention_rollout.h"

#include <gtest/gtest.h>

#include <vector>

#include "tests/data/attention_group_builder.h"

namespace ascope {
namespace {

using testing::groupOf;
using testing::mapOf;

void expectMap(const AttentionMap& map, const std::vector<std::vector<double>>& expected) {
  ASSERT_EQ(map.rows, static_cast<int>(expected.size()));
  ASSERT_EQ(map.cols, static_cast<int>(expected.front().size()));
  for (int i = 0; i < map.rows; ++i) {
    for (int j = 0; j < map.cols; ++j) {
      EXPECT_NEAR(map.values[static_cast<std::size_t>(i * map.cols + j)], expected[i][j], 1e-6)
          << "cell [" << i << "][" << j << "]";
    }
  }
}

// Two layers of two heads over three tokens, worked by hand:
//   layer 0  head 0        head 1          mean W0
//            1  0  0       0  1  0         .5  .5   0
//            .5 .5 0       .5 .5 0         .5  .5   0
//            0  .5 .5      0  0  1         0   .25  .75
//   A0 = (W0 + I) / 2 = [.75 .25 0; .25 .75 0; 0 .125 .875]   (rows already sum to 1)
//   layer 1  head 0        head 1          mean W1
//            0  0  1       0  0  1         0   0    1
//            0  1  0       0  0  1         0   .5   .5
//            1  0  0       1  0  0         1   0    0
//   A1 = (W1 + I) / 2 = [.5 0 .5; 0 .75 .25; .5 0 .5]
//   R = A1 · A0:
//     row 0 = .5 · [.75 .25 0] + .5 · [0 .125 .875]   = [.375  .1875   .4375]
//     row 1 = .75 · [.25 .75 0] + .25 · [0 .125 .875] = [.1875 .59375  .21875]
//     row 2 = row 0
AttentionGroup handWorkedGroup() {
  return groupOf(
      "encoder", 2, 2,
      {mapOf({{1, 0, 0}, {.5f, .5f, 0}, {0, .5f, .5f}}),
       mapOf({{0, 1, 0}, {.5f, .5f, 0}, {0, 0, 1}}), mapOf({{0, 0, 1}, {0, 1, 0}, {1, 0, 0}}),
       mapOf({{0, 0, 1}, {0, 0, 1}, {1, 0, 0}})});
}

TEST(AttentionRollout, TwoLayersOfMeanFusedHeadsMatchTheHandComputation) {
  const Expected<AttentionMap> rollout = attentionRollout(handWorkedGroup(), {});
  ASSERT_TRUE(rollout.ok()) << rollout.error();
  expectMap(*rollout, {{.375, .1875, .4375}, {.1875, .59375, .21875}, {.375, .1875, .4375}});
}

TEST(AttentionRollout, LastLayerStopsTheProduct) {
  RolloutOptions options;
  options.last_layer = 0;
  const Expected<AttentionMap> rollout = attentionRollout(handWorkedGroup(), options);
  ASSERT_TRUE(rollout.ok()) << rollout.error();
  expectMap(*rollout, {{.75, .25, 0}, {.25, .75, 0}, {0, .125, .875}});
}

TEST(AttentionRollout, ByLayerGivesTheRolloutThroughEachLayer) {
  const Expected<std::vector<AttentionMap>> rollouts =
      attentionRolloutByLayer(handWorkedGroup(), {});
  ASSERT_TRUE(rollouts.ok()) << rollouts.error();
  ASSERT_EQ(rollouts->size(), 2u);
  expectMap((*rollouts)[0], {{.75, .25, 0}, {.25, .75, 0}, {0, .125, .875}});
  expectMap((*rollouts)[1], {{.375, .1875, .4375}, {.1875, .59375, .21875}, {.375, .1875, .4375}});
  RolloutOptions options;
  options.last_layer = 0;
  EXPECT_EQ(attentionRolloutByLayer(handWorkedGroup(), options)->size(), 1u);
}

TEST(AttentionRollout, MaxAndMinFusionRenormaliseTheRows) {
  RolloutOptions options;
  options.last_layer = 0;
  // max W0 = [1 1 0; .5 .5 0; 0 .5 1]; (W0 + I)/2 = [1 .5 0; .25 .75 0; 0 .25 1], row sums
  // 1.5, 1, 1.25 → [2/3 1/3 0; .25 .75 0; 0 .2 .8]
  options.fusion = HeadFusion::kMax;
  Expected<AttentionMap> rollout = attentionRollout(handWorkedGroup(), options);
  ASSERT_TRUE(rollout.ok()) << rollout.error();
  expectMap(*rollout, {{2.0 / 3, 1.0 / 3, 0}, {.25, .75, 0}, {0, .2, .8}});
  // min W0 = [0 0 0; .5 .5 0; 0 0 .5]; (W0 + I)/2 = [.5 0 0; .25 .75 0; 0 0 .75], row sums
  // .5, 1, .75 → [1 0 0; .25 .75 0; 0 0 1]
  options.fusion = HeadFusion::kMin;
  rollout = attentionRollout(handWorkedGroup(), options);
  ASSERT_TRUE(rollout.ok()) << rollout.error();
  expectMap(*rollout, {{1, 0, 0}, {.25, .75, 0}, {0, 0, 1}});
}

// One layer, one head: W = [.1 .2 .7; .3 .3 .4; .05 .15 .8].
AttentionGroup oneLayer() {
  return groupOf("encoder", 1, 1, {mapOf({{.1f, .2f, .7f}, {.3f, .3f, .4f}, {.05f, .15f, .8f}})});
}

TEST(AttentionRollout, DiscardZeroesTheSmallestCellsButSparesTheFirst) {
  RolloutOptions options;
  // floor(.34 · 9) = 3 smallest: .05 [2][0], .1 [0][0] (spared), .15 [2][1] → row 2 = [0 0 .8];
  // (W + I)/2 row 2 = [0 0 .9] → [0 0 1]; rows 0 and 1 as (W + I)/2.
  options.discard_ratio = .34;
  Expected<AttentionMap> rollout = attentionRollout(oneLayer(), options);
  ASSERT_TRUE(rollout.ok()) << rollout.error();
  expectMap(*rollout, {{.55, .1, .35}, {.15, .65, .2}, {0, 0, 1}});
  // floor(.3 · 9) = 2: .05 and [0][0], which is spared, so only [2][0] goes (as vit-explain):
  // row 2 = [0 .15 .8] → (W + I)/2 = [0 .075 .9], sum .975 → [0 .076923 .923077]
  options.discard_ratio = .3;
  rollout = attentionRollout(oneLayer(), options);
  ASSERT_TRUE(rollout.ok()) << rollout.error();
  expectMap(*rollout, {{.55, .1, .35}, {.15, .65, .2}, {0, .075 / .975, .9 / .975}});
  // No discard: (W + I)/2 as it is.
  options.discard_ratio = 0;
  rollout = attentionRollout(oneLayer(), options);
  ASSERT_TRUE(rollout.ok()) << rollout.error();
  expectMap(*rollout, {{.55, .1, .35}, {.15, .65, .2}, {.025, .075, .9}});
}

// Causal, one head: L0 = [1 0 0; .5 .5 0; .2 .3 .5], L1 = [1 0 0; 0 1 0; 1/3 1/3 1/3].
//   A0 = [1 0 0; .25 .75 0; .1 .15 .75], A1 = [1 0 0; 0 1 0; 1/6 1/6 2/3]
//   R = A1 · A0: row 2 = 1/6 [1 0 0] + 1/6 [.25 .75 0] + 2/3 [.1 .15 .75] = [.275 .225 .5]
TEST(AttentionRollout, CausalGroupsStayLowerTriangular) {
  AttentionGroup group = groupOf("decoder self", 2, 1,
                                 {mapOf({{1, 0, 0}, {.5f, .5f, 0}, {.2f, .3f, .5f}}),
                                  mapOf({{1, 0, 0}, {0, 1, 0}, {1.f / 3, 1.f / 3, 1.f / 3}})});
  group.causal = true;
  Expected<AttentionMap> rollout = attentionRollout(group, {});
  ASSERT_TRUE(rollout.ok()) << rollout.error();
  expectMap(*rollout, {{1, 0, 0}, {.25, .75, 0}, {.275, .225, .5}});
  // floor(.34 · 9) = 3: the discard takes cells that are zero already (the masked ones above the
  // diagonal come first), so it changes nothing here.
  RolloutOptions options;
  options.discard_ratio = .34;
  rollout = attentionRollout(group, options);
  ASSERT_TRUE(rollout.ok()) << rollout.error();
  expectMap(*rollout, {{1, 0, 0}, {.25, .75, 0}, {.275, .225, .5}});
}

TEST(AttentionRollout, RefusesCrossAttentionBadRatiosAndLayers) {
  std::vector<AttentionMap> maps(1, AttentionMap{5, 7, std::vector<float>(35, 1.f / 7)});
  Expected<AttentionMap> rollout = attentionRollout(groupOf("cross", 1, 1, maps), {});
  ASSERT_FALSE(rollout.ok());
  EXPECT_EQ(rollout.error(), "rollout needs self-attention; \"cross\" maps 5 queries onto 7 keys");
  maps.assign(1, AttentionMap{3, 3, std::vector<float>(9, 1.f / 3)});
  rollout = attentionRollout(groupOf("cross", 1, 1, maps), {});
  ASSERT_FALSE(rollout.ok());
  EXPECT_EQ(rollout.error(),
            "rollout needs self-attention; \"cross\" maps 3 queries onto 3 keys of another "
            "sequence");

  RolloutOptions options;
  options.discard_ratio = 1;
  rollout = attentionRollout(handWorkedGroup(), options);
  ASSERT_FALSE(rollout.ok());
  EXPECT_EQ(rollout.error(), "rollout: discard ratio 1 is not in [0, 1)");
  options.discard_ratio = -0.25;
  EXPECT_EQ(attentionRollout(handWorkedGroup(), options).error(),
            "rollout: discard ratio -0.25 is not in [0, 1)");

  options = {};
  options.last_layer = 2;
  rollout = attentionRollout(handWorkedGroup(), options);
  ASSERT_FALSE(rollout.ok());
  EXPECT_EQ(rollout.error(),
            "rollout: layer 2 of \"encoder\" does not exist (layers 0 to 1, or -1 for all)");

  AttentionGroup broken = handWorkedGroup();
  broken.maps.pop_back();
  rollout = attentionRollout(broken, {});
  ASSERT_FALSE(rollout.ok());
  EXPECT_EQ(rollout.error(), "rollout: \"encoder\": 3 maps for 2 layers × 2 heads");
}

}  // namespace
}  // namespace ascope
