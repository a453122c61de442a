#include "engine/analysis/head_kind.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace ascope {
namespace {

TEST(HeadKind, APatternNeedsHalfTheAttentionAndTheStrongestWins) {
  HeadKindVerdict v = classifyHead({{"previous_token", .62}, {"entropy", .9}});
  EXPECT_EQ(v.kind, "previous-token");
  EXPECT_DOUBLE_EQ(v.score, .62);
  EXPECT_EQ(classifyHead({{"next_token", .5}}).kind, "next-token");
  EXPECT_EQ(classifyHead({{"diagonal", .7}, {"previous_token", .2}}).kind, "self");
  EXPECT_EQ(classifyHead({{"previous_token", .6}, {"first_token_mass", .7}}).kind, "first-token");
  EXPECT_EQ(classifyHead({{"first_token_mass", .55}, {"special_mass", .8}}).kind, "special-token");
  // A ViT head on CLS: CLS is the first token and the only special one, the two shares are equal.
  EXPECT_EQ(classifyHead({{"first_token_mass", .7}, {"special_mass", .7}}).kind, "first-token");
}

TEST(HeadKind, WithoutAPatternEntropySaysBroadOrMixed) {
  HeadKindVerdict v = classifyHead({{"entropy", .9}, {"previous_token", .49}});
  EXPECT_EQ(v.kind, "broad");
  EXPECT_DOUBLE_EQ(v.score, .9);
  EXPECT_EQ(classifyHead({{"entropy", .85}}).kind, "broad");
  v = classifyHead({{"entropy", .84}, {"max_weight", .4}});
  EXPECT_EQ(v.kind, "mixed");
  EXPECT_DOUBLE_EQ(v.score, .84);
  EXPECT_EQ(classifyHead({}).kind, "mixed");
  EXPECT_EQ(classifyHead({{"entropy", std::nan("")}}).kind, "mixed");
}

std::vector<HeadStatistic> encoderHead(double previous_token, double entropy) {
  return {{"encoder", 1, 3, "entropy", entropy},
          {"encoder", 1, 3, "previous_token", previous_token}};
}

TEST(HeadKindTracker, ReportsAChangeOnceAfterTwoObservationsInARow) {
  HeadKindTracker tracker;
  EXPECT_TRUE(tracker.observe(100, encoderHead(.1, .9)).empty()) << "the first sets the kind";
  EXPECT_EQ(tracker.kindOf("encoder", 1, 3), "broad");
  EXPECT_TRUE(tracker.observe(200, encoderHead(.7, .5)).empty()) << "seen once: not yet";
  EXPECT_TRUE(tracker.observe(300, encoderHead(.1, .9)).empty()) << "back: a flicker";
  EXPECT_TRUE(tracker.observe(1100, encoderHead(.55, .5)).empty());
  EXPECT_EQ(tracker.kindOf("encoder", 1, 3), "broad");

  const std::vector<HeadKindChange> changes = tracker.observe(1200, encoderHead(.62, .5));
  ASSERT_EQ(changes.size(), 1u);
  const HeadKindChange& c = changes[0];
  EXPECT_EQ(c.step, 1200);
  EXPECT_EQ(c.group, "encoder");
  EXPECT_EQ(c.layer, 1);
  EXPECT_EQ(c.head, 3);
  EXPECT_EQ(c.from, "broad");
  EXPECT_EQ(c.to, "previous-token");
  EXPECT_DOUBLE_EQ(c.score, .62);
  EXPECT_EQ(c.text, "step 1,200: encoder layer 1 head 3 became previous-token (0.62; was broad)");
  EXPECT_EQ(tracker.kindOf("encoder", 1, 3), "previous-token");

  EXPECT_TRUE(tracker.observe(1300, encoderHead(.8, .4)).empty()) << "reported once";
  EXPECT_TRUE(tracker.observe(1400, encoderHead(.1, .5)).empty());
  EXPECT_EQ(tracker.observe(1500, encoderHead(.1, .5)).at(0).text,
            "step 1,500: encoder layer 1 head 3 became mixed (0.50; was previous-token)");
}

TEST(HeadKindTracker, AValueWanderingAroundAThresholdKeepsItsKind) {
  HeadKindTracker tracker;
  EXPECT_TRUE(tracker.observe(10, encoderHead(.1, .86)).empty());
  EXPECT_EQ(tracker.kindOf("encoder", 1, 3), "broad");
  // 0.83 and 0.81 are "mixed" for classifyHead but within the 0.05 margin of broad's 0.85.
  for (int64_t step : {20, 30, 40}) {
    EXPECT_TRUE(tracker.observe(step, encoderHead(.1, step == 30 ? .81 : .83)).empty()) << step;
  }
  EXPECT_EQ(tracker.kindOf("encoder", 1, 3), "broad");
  // Clearly below: reported after two observations.
  EXPECT_TRUE(tracker.observe(50, encoderHead(.1, .7)).empty());
  ASSERT_EQ(tracker.observe(60, encoderHead(.1, .7)).size(), 1u);
  EXPECT_EQ(tracker.kindOf("encoder", 1, 3), "mixed");
  // Back up to 0.88: still within mixed's margin (below 0.90), so nothing to report.
  EXPECT_TRUE(tracker.observe(70, encoderHead(.1, .88)).empty());
  EXPECT_TRUE(tracker.observe(80, encoderHead(.1, .88)).empty());
  EXPECT_EQ(tracker.kindOf("encoder", 1, 3), "mixed");

  // A pattern kind holds down to 0.45 of its share; another pattern takes over at once.
  HeadKindTracker pattern;
  EXPECT_TRUE(pattern.observe(10, encoderHead(.6, .3)).empty());
  EXPECT_TRUE(pattern.observe(20, encoderHead(.47, .3)).empty());
  EXPECT_TRUE(pattern.observe(30, encoderHead(.46, .3)).empty());
  EXPECT_EQ(pattern.kindOf("encoder", 1, 3), "previous-token");
  std::vector<HeadStatistic> self = encoderHead(.46, .3);
  self.push_back({"encoder", 1, 3, "diagonal", .7});
  EXPECT_TRUE(pattern.observe(40, self).empty());
  EXPECT_EQ(pattern.observe(50, self).at(0).to, "self");
}

TEST(HeadKindTracker, HeadsAreTrackedApartAndNewHeadsStartSilently) {
  HeadKindTracker tracker;
  tracker.observe(10, encoderHead(.1, .9));
  std::vector<HeadStatistic> both = encoderHead(.1, .9);
  both.push_back({"cross", 0, 0, "entropy", .2});
  EXPECT_TRUE(tracker.observe(20, both).empty()) << "cross layer 0 head 0 seen for the first time";
  EXPECT_EQ(tracker.kindOf("cross", 0, 0), "mixed");
  EXPECT_EQ(tracker.kindOf("cross", 0, 1), "");
  both.back().value = .95;
  EXPECT_TRUE(tracker.observe(30, both).empty());
  const std::vector<HeadKindChange> changes = tracker.observe(1234567, both);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].text, "step 1,234,567: cross layer 0 head 0 became broad (0.95; was mixed)");
}

}  // namespace
}  // namespace ascope
