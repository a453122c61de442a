// What a size limit leaves out of a handout, and in which order.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/handout/handout_budget.h"

namespace ascope {
namespace {

/// `frames` frames of `probes` probes; group 0 and 1 are the model's (4 layers each), group 2 a
/// rollout of group 0 (4 layers); every layer of every probe costs `layer` bytes.
HandoutCosts costsOf(int frames, int probes, std::size_t layer, std::size_t fixed = 1000) {
  HandoutCosts costs;
  costs.fixed = fixed;
  costs.probes = probes;
  costs.group_layers = {4, 4, 4};
  costs.group_is_rollout = {false, false, true};
  for (int f = 0; f < frames; ++f) {
    HandoutCosts::Frame frame;
    frame.overhead = 10;
    for (int p = 0; p < probes; ++p) {
      frame.probe_overhead.push_back(20);
      frame.layer_bytes.push_back(
          std::vector<std::vector<std::size_t>>(3, std::vector<std::size_t>(4, layer)));
    }
    costs.frames.push_back(frame);
  }
  return costs;
}

int keptLayers(const HandoutSelection& s, std::size_t group) {
  int n = 0;
  for (bool kept : s.layers[group]) n += kept ? 1 : 0;
  return n;
}

TEST(HandoutBudget, EvenlySpacedKeepsFirstAndLast) {
  EXPECT_EQ(evenlySpaced(10, 3), (std::vector<int>{0, 5, 9}));
  EXPECT_EQ(evenlySpaced(10, 1), (std::vector<int>{9}));
  EXPECT_EQ(evenlySpaced(4, 10), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(evenlySpaced(0, 3), (std::vector<int>{}));
  const std::vector<int> spread = evenlySpaced(199, 49);
  ASSERT_EQ(spread.size(), 49u);
  EXPECT_EQ(spread.front(), 0);
  EXPECT_EQ(spread.back(), 198);
  for (std::size_t i = 1; i < spread.size(); ++i) {
    const int gap = spread[i] - spread[i - 1];
    EXPECT_TRUE(gap == 4 || gap == 5) << i << ": " << gap;  // 198 / 48 = 4.1
  }
}

TEST(HandoutBudget, EverythingWhenItFits) {
  const HandoutCosts costs = costsOf(50, 4, 100);
  const HandoutSelection s = planHandout(costs, 10'000'000);
  EXPECT_TRUE(s.fits);
  EXPECT_EQ(s.frames.size(), 50u);
  EXPECT_EQ(s.probes, 4);
  EXPECT_EQ(s.estimated_bytes, estimateBytes(costs, s));
  EXPECT_TRUE(describeLeftOut(costs, s, {"a", "b", "a · rollout"}, {0, 1, 2, 3}).empty());
}

TEST(HandoutBudget, SnapshotsAreThinnedFirstDownToTheFloor) {
  const HandoutCosts costs = costsOf(100, 4, 100);
  const std::size_t per_frame = 10 + 4 * (20 + 12 * 100);
  const HandoutSelection s = planHandout(costs, 1000 + 60 * per_frame + 5);
  EXPECT_TRUE(s.fits);
  EXPECT_EQ(s.frames.size(), 60u);
  EXPECT_EQ(s.frames.front(), 0);
  EXPECT_EQ(s.frames.back(), 99);
  EXPECT_EQ(s.probes, 4);
  EXPECT_LE(s.estimated_bytes, 1000 + 60 * per_frame + 5);
  const auto left_out = describeLeftOut(costs, s, {}, {});
  ASSERT_EQ(left_out.size(), 1u);
  EXPECT_EQ(left_out[0],
            "40 of the run's 100 snapshots (60 kept, evenly spaced from the first to "
            "the last)");
}

TEST(HandoutBudget, ThenProbeSamplesThenMiddleLayersThenGroups) {
  const HandoutCosts costs = costsOf(100, 4, 100);
  const std::size_t probe = 20 + 12 * 100;
  // The floor's 20 snapshots with 2 probes: the last two probe samples go.
  HandoutSelection s = planHandout(costs, 1000 + 20 * (10 + 2 * probe));
  EXPECT_TRUE(s.fits);
  EXPECT_EQ(s.probes, 2);
  EXPECT_EQ(s.frames.size(), 20u);
  EXPECT_EQ(keptLayers(s, 0), 4);
  const auto probes_left_out = describeLeftOut(costs, s, {"a", "b", "c"}, {3, 5, 7, 9});
  ASSERT_EQ(probes_left_out.size(), 2u);
  EXPECT_EQ(probes_left_out[1], "probe samples #7 and #9 (the first 2 of 4 kept)");

  // One probe and, of every group, the first and the last layer.
  s = planHandout(costs, 1000 + 20 * (10 + 20 + 6 * 100));
  EXPECT_TRUE(s.fits);
  EXPECT_EQ(s.probes, 1);
  for (std::size_t g = 0; g < 3; ++g) {
    EXPECT_TRUE(s.groups[g]);
    EXPECT_EQ(s.layers[g], (std::vector<bool>{true, false, false, true})) << g;
  }
  const auto layers_left_out =
      describeLeftOut(costs, s, {"enc", "dec", "enc · rollout"}, {3, 5, 7, 9});
  EXPECT_NE(std::find(layers_left_out.begin(), layers_left_out.end(),
                      "layers 1 and 2 of \"enc\" (0 and 3 kept)"),
            layers_left_out.end());

  // Then the rollout goes, then the last model group; the first stays.
  s = planHandout(costs, 1000 + 20 * (10 + 20 + 4 * 100));
  EXPECT_TRUE(s.fits);
  EXPECT_EQ(s.groups, (std::vector<bool>{true, true, false}));
  s = planHandout(costs, 1000 + 20 * (10 + 20 + 2 * 100));
  EXPECT_TRUE(s.fits);
  EXPECT_EQ(s.groups, (std::vector<bool>{true, false, false}));
  EXPECT_EQ(s.frames.size(), 20u);
}

TEST(HandoutBudget, FreedRoomGoesBackToSnapshots) {
  const HandoutCosts costs = costsOf(100, 4, 100);
  // The floor's 20 snapshots fit with one probe sample; with the other three gone, 22 do.
  const std::size_t limit = 1000 + 22 * (10 + 20 + 12 * 100) + 10;
  const HandoutSelection s = planHandout(costs, limit);
  EXPECT_TRUE(s.fits);
  EXPECT_EQ(s.probes, 1);
  EXPECT_EQ(s.frames.size(), 22u);
  EXPECT_EQ(keptLayers(s, 0), 4);
  EXPECT_LE(s.estimated_bytes, limit);
}

TEST(HandoutBudget, BelowTheFloorOnlyWhenNothingElseIsLeft) {
  const HandoutCosts costs = costsOf(100, 4, 100);
  const HandoutSelection s = planHandout(costs, 1000 + 5 * (10 + 20 + 2 * 100));
  EXPECT_TRUE(s.fits);
  EXPECT_EQ(s.frames.size(), 5u);
  EXPECT_EQ(s.frames.back(), 99);
  EXPECT_EQ(s.groups, (std::vector<bool>{true, false, false}));
  const HandoutSelection none = planHandout(costs, 1100);
  EXPECT_FALSE(none.fits);
  EXPECT_EQ(none.frames, (std::vector<int>{99}));
  EXPECT_GT(none.estimated_bytes, 1100u);
}

TEST(HandoutBudget, RunWithoutSnapshots) {
  HandoutCosts costs;
  costs.fixed = 500;
  EXPECT_TRUE(planHandout(costs, 600).fits);
  EXPECT_FALSE(planHandout(costs, 400).fits);
}

}  // namespace
}  // namespace ascope
