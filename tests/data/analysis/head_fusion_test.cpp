#include "engine/analysis/head_fusion.h"

#include <gtest/gtest.h>

#include "tests/data/attention_group_builder.h"

namespace ascope {
namespace {

using testing::groupOf;
using testing::mapOf;

// Layer 1 of a 2-layer, 2-head group: heads [.2 .8; .6 .4] and [.5 .5; .1 .9].
AttentionGroup twoHeads() {
  return groupOf("encoder", 2, 2,
                 {mapOf({{1, 0}, {0, 1}}), mapOf({{0, 1}, {1, 0}}), mapOf({{.2f, .8f}, {.6f, .4f}}),
                  mapOf({{.5f, .5f}, {.1f, .9f}})});
}

TEST(HeadFusion, NamesGoBothWays) {
  for (HeadFusion fusion : {HeadFusion::kMean, HeadFusion::kMin, HeadFusion::kMax}) {
    EXPECT_EQ(headFusionFromName(headFusionName(fusion)), fusion);
  }
  EXPECT_STREQ(headFusionName(HeadFusion::kMin), "min");
  EXPECT_FALSE(headFusionFromName("median").has_value());
  EXPECT_FALSE(headFusionFromName("Mean").has_value());
}

TEST(HeadFusion, MeanMinAndMaxAreTakenCellByCellOverTheLayersHeads) {
  const AttentionGroup group = twoHeads();
  const AttentionMap mean = fuseHeads(group, 1, HeadFusion::kMean);
  ASSERT_EQ(mean.rows, 2);
  ASSERT_EQ(mean.cols, 2);
  const float expected_mean[] = {.35f, .65f, .35f, .65f};
  const float expected_min[] = {.2f, .5f, .1f, .4f};
  const float expected_max[] = {.5f, .8f, .6f, .9f};
  const AttentionMap min = fuseHeads(group, 1, HeadFusion::kMin);
  const AttentionMap max = fuseHeads(group, 1, HeadFusion::kMax);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_NEAR(mean.values[i], expected_mean[i], 1e-6) << i;
    EXPECT_FLOAT_EQ(min.values[i], expected_min[i]) << i;
    EXPECT_FLOAT_EQ(max.values[i], expected_max[i]) << i;
  }
  // Layer 0 is its own: the mean of an identity and a swap is uniform.
  const AttentionMap layer0 = fuseHeads(group, 0, HeadFusion::kMean);
  for (float v : layer0.values) EXPECT_FLOAT_EQ(v, .5f);
}

TEST(HeadFusion, ALayerThatIsNotThereOrAMalformedGroupGivesAnEmptyMap) {
  AttentionGroup group = twoHeads();
  EXPECT_EQ(fuseHeads(group, 2, HeadFusion::kMean).rows, 0);
  EXPECT_EQ(fuseHeads(group, -1, HeadFusion::kMax).values.size(), 0u);
  group.maps.pop_back();
  EXPECT_EQ(fuseHeads(group, 0, HeadFusion::kMean).rows, 0);
}

}  // namespace
}  // namespace ascope
