// Temperature scaling: the fit lowers the validation loss of a deliberately over-confident set to
// the temperature worked out by hand, leaves an honest set at 1, and applying a temperature
// changes how sure an answer sounds, never which answer it is.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/scoring/calibration_error.h"
#include "engine/scoring/temperature_fit.h"
#include "engine/scoring/temperature_scaling.h"

namespace ascope {
namespace {

/// `n` binary answers with logits (gap, 0) for class 0, of which `right` are right.
std::vector<ScoredSample> binarySet(int n, int right, float gap) {
  std::vector<ScoredSample> out;
  for (int i = 0; i < n; ++i) {
    ScoredSample s;
    s.index = i;
    s.logits = std::vector<float>{gap, 0.0f};
    s.predicted_class = 0;
    s.true_class = i < right ? 0 : 1;
    s.prediction.correct = s.true_class == s.predicted_class;
    s.prediction.probability = temperedProbabilities(s.logits, 1.0)[0];
    out.push_back(s);
  }
  return out;
}

TEST(TemperatureFit, CoolsAnOverConfidentSetToItsHitRate) {
  // Sure as σ(5) ≈ 0.993 and right 3 times in 4: the loss is least where σ(5 / T) = 0.75, so
  // 5 / T = ln 3 and T = 5 / ln 3 ≈ 4.551.
  const std::vector<ScoredSample> set = binarySet(400, 300, 5.0f);
  const Expected<TemperatureFit> fit = fitTemperature(set);
  ASSERT_TRUE(fit.ok()) << fit.error();
  EXPECT_NEAR(fit->temperature, 5.0 / std::log(3.0), 1e-4);
  EXPECT_LT(fit->nll_after, fit->nll_before);
  EXPECT_NEAR(fit->nll_after, temperedLoss(set, fit->temperature), 1e-12);
  EXPECT_EQ(fit->samples, 400);
  const Expected<CalibrationError> before = calibrationError(confidenceOutcomes(set, 1.0));
  const Expected<CalibrationError> after =
      calibrationError(confidenceOutcomes(set, fit->temperature));
  ASSERT_TRUE(before.ok() && after.ok());
  EXPECT_NEAR(before->ece, 0.993 - 0.75, 1e-3);
  EXPECT_LT(after->ece, 1e-4);
}

TEST(TemperatureFit, WarmsAnUnderConfidentSet) {
  // Always right but only 62 % sure: the fit sharpens it (T < 1).
  const Expected<TemperatureFit> fit = fitTemperature(binarySet(50, 50, 0.5f));
  ASSERT_TRUE(fit.ok()) << fit.error();
  EXPECT_LT(fit->temperature, 1.0);
  EXPECT_GE(fit->temperature, kMinTemperature);
  EXPECT_LT(fit->nll_after, fit->nll_before);
}

TEST(TemperatureFit, LeavesAnHonestSetAtOne) {
  // σ(ln 3) = 0.75 and right 3 times in 4: already the least loss.
  const Expected<TemperatureFit> fit =
      fitTemperature(binarySet(400, 300, static_cast<float>(std::log(3.0))));
  ASSERT_TRUE(fit.ok()) << fit.error();
  EXPECT_NEAR(fit->temperature, 1.0, 1e-3);
}

TEST(TemperatureFit, RefusesASplitWithoutLogits) {
  std::vector<ScoredSample> translation(3);
  EXPECT_FALSE(fitTemperature(translation).ok());
  EXPECT_FALSE(fitTemperature({}).ok());
}

TEST(TemperatureScaling, ChangesTheProbabilityNotTheAnswer) {
  std::vector<ScoredSample> set = binarySet(2, 1, 3.0f);
  applyTemperature(set, 3.0);
  for (const ScoredSample& s : set) {
    EXPECT_NEAR(s.prediction.probability, 1.0 / (1.0 + std::exp(-1.0)), 1e-9);
    EXPECT_EQ(s.predicted_class, 0);
  }
}

TEST(TemperatureScaling, ARankingAtATemperatureIsItsSoftmaxOfLogitsOverT) {
  // p^(1/T) normalised: (0.9, 0.1) at T = 2 is (√0.9, √0.1) / (√0.9 + √0.1) = (0.75, 0.25).
  const auto ranked = temperedRanking({{"positive", 0.9}, {"negative", 0.1}}, 2.0);
  ASSERT_EQ(ranked.size(), 2u);
  EXPECT_EQ(ranked[0].first, "positive");
  EXPECT_NEAR(ranked[0].second, 0.75, 1e-9);
  EXPECT_NEAR(ranked[1].second, 0.25, 1e-9);
  const std::vector<std::pair<std::string, double>> same = {{"a", 0.6}, {"b", 0.4}};
  EXPECT_EQ(temperedRanking(same, 1.0), same);
  // A class whose probability underflowed to 0 stays last, and the rest still sums to 1.
  const auto sharp = temperedRanking({{"a", 1.0}, {"b", 0.0}, {"c", 0.0}}, 4.0);
  EXPECT_EQ(sharp[0].first, "a");
  EXPECT_NEAR(sharp[0].second + sharp[1].second + sharp[2].second, 1.0, 1e-12);
}

TEST(TemperatureScaling, TheLossOfAConfidentlyWrongAnswerStaysFinite) {
  ScoredSample s;
  s.logits = std::vector<float>{200.0f, -200.0f};
  s.predicted_class = 0;
  s.true_class = 1;
  const double loss = temperedLoss({s}, 1.0);
  EXPECT_TRUE(std::isfinite(loss));
  EXPECT_NEAR(loss, 400.0, 1e-3);
}

}  // namespace
}  // namespace ascope
