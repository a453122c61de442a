#include <gtest/gtest.h>

#include <set>

#include "engine/datasets/held_out_splits.h"

namespace ascope {
namespace {

/// 1,000 pairs over 400 distinct sources: every source repeats, some many times.
std::vector<TranslationPair> repetitiveCorpus() {
  std::vector<TranslationPair> pairs;
  for (int i = 0; i < 1000; ++i) {
    const int source = (i * 7) % 400;
    pairs.push_back({"source " + std::to_string(source), "target " + std::to_string(i)});
  }
  return pairs;
}

std::set<std::string> sourceSet(const std::vector<TranslationPair>& pairs) {
  std::set<std::string> out;
  for (const auto& p : pairs) out.insert(p.source);
  return out;
}

TEST(HeldOutSplits, NoInputOnTwoSidesAndCarvedSplitsHaveNoRepeats) {
  std::vector<TranslationPair> train = repetitiveCorpus(), validation, test;
  const std::size_t distinct = sourceSet(train).size();
  SplitOrigins origins;
  HeldOutPlan plan;
  plan.noun = "pairs";
  carveHeldOutSplits(train, validation, test, origins, plan);
  EXPECT_EQ(validation.size(), 100u);  // 10 % of the 1,000 pairs, one per distinct source
  EXPECT_EQ(test.size(), 100u);
  EXPECT_EQ(sourceSet(validation).size(), validation.size()) << "deduplicated";
  EXPECT_EQ(sourceSet(test).size(), test.size()) << "deduplicated";
  const std::set<std::string> seen = sourceSet(train);
  for (const auto* split : {&validation, &test}) {
    for (const auto& p : *split) EXPECT_EQ(seen.count(p.source), 0u) << p.source;
  }
  for (const auto& p : test) EXPECT_EQ(sourceSet(validation).count(p.source), 0u) << p.source;
  // Every distinct source is somewhere, and training keeps every pair of its sources.
  EXPECT_EQ(seen.size() + validation.size() + test.size(), distinct);
  EXPECT_NE(origins.test.find("100 pairs carved from the training data (10 %"), std::string::npos)
      << origins.test;
}

TEST(HeldOutSplits, TheSeedAloneDecidesAndTrainingKeepsItsOrder) {
  auto carve = [](std::uint64_t seed) {
    std::vector<TranslationPair> train = repetitiveCorpus(), validation, test;
    SplitOrigins origins;
    HeldOutPlan plan;
    plan.seed = seed;
    carveHeldOutSplits(train, validation, test, origins, plan);
    return std::make_tuple(train, validation, test);
  };
  const auto [train_a, validation_a, test_a] = carve(7);
  const auto [train_b, validation_b, test_b] = carve(7);
  const auto [train_c, validation_c, test_c] = carve(8);
  ASSERT_EQ(test_a.size(), test_b.size());
  for (std::size_t i = 0; i < test_a.size(); ++i) EXPECT_EQ(test_a[i].source, test_b[i].source);
  EXPECT_NE(sourceSet(test_a), sourceSet(test_c)) << "another seed, another test split";
  // Training samples stay in corpus order: "target N" rises.
  for (std::size_t i = 1; i < train_a.size(); ++i) {
    EXPECT_LT(std::stoi(train_a[i - 1].target.substr(7)), std::stoi(train_a[i].target.substr(7)));
  }
}

TEST(HeldOutSplits, AGivenTestSplitIsKeptWholeAndItsOverlapSaid) {
  std::vector<TextSample> train{{"a", 0}, {"b", 1}, {"c", 0}, {"d", 1}, {"e", 0},
                                {"f", 1}, {"g", 0}, {"h", 1}, {"i", 0}, {"j", 1}};
  std::vector<TextSample> validation, test{{"a", 0}, {"z", 1}, {"z", 1}};
  SplitOrigins origins;
  origins.test = "the data set's own test split";
  HeldOutPlan plan;
  plan.noun = "reviews";
  const std::vector<std::string> lines = carveHeldOutSplits(train, validation, test, origins, plan);
  EXPECT_EQ(test.size(), 3u) << "a split the data brings is never deduplicated or cut";
  EXPECT_EQ(origins.test, "the data set's own test split");
  EXPECT_EQ(validation.size(), 1u);
  EXPECT_EQ(train.size(), 9u);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "1 of the 3 test reviews also occur in the training data");
}

TEST(HeldOutSplits, NoTestFractionMeansNoTestSplit) {
  std::vector<TextSample> train(50), validation, test;
  for (int i = 0; i < 50; ++i) train[i].text = std::to_string(i);
  SplitOrigins origins;
  HeldOutPlan plan;
  plan.test_fraction = 0;
  carveHeldOutSplits(train, validation, test, origins, plan);
  EXPECT_TRUE(test.empty());
  EXPECT_TRUE(origins.test.empty());
  EXPECT_EQ(validation.size(), 5u);
  EXPECT_EQ(train.size(), 45u);
}

TEST(HeldOutSplits, ATinyPoolKeepsOneGroupForTraining) {
  const HeldOutAssignment a = assignHeldOut({"x", "x", "y"}, 5, 5, 1);
  EXPECT_EQ(a.test.size() + a.validation.size(), 1u);
  EXPECT_FALSE(a.train.empty());
  EXPECT_TRUE(assignHeldOut({}, 3, 3, 1).train.empty());
  EXPECT_EQ(groupedCount(25000), "25,000");
  EXPECT_EQ(groupedCount(1234567), "1,234,567");
  EXPECT_EQ(groupedCount(999), "999");
}

}  // namespace
}  // namespace ascope
