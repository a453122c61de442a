// The expected calibration error and reliability bins against cases worked out by hand: empty
// bins, a confidence of exactly 1.0 (the last bin) and 0.0 (the first), a bin's lower edge, a
// single sample, and what is refused (no answers, NaN or out-of-range confidences).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "engine/scoring/calibration_error.h"

namespace ascope {
namespace {

TEST(CalibrationError, FourAnswersWorkedByHand) {
  // Bin 9: 0.95 right and 0.95 wrong → accuracy 0.5, gap 0.45, weight 2/4.
  // Bin 5: 0.55 right → gap 0.45, weight 1/4. Bin 6: 0.65 wrong → gap 0.65, weight 1/4.
  const Expected<CalibrationError> e =
      calibrationError({{0.95, true}, {0.95, false}, {0.55, true}, {0.65, false}});
  ASSERT_TRUE(e.ok()) << e.error();
  EXPECT_NEAR(e->ece, 0.5 * 0.45 + 0.25 * 0.45 + 0.25 * 0.65, 1e-12);
  EXPECT_EQ(e->samples, 4);
  ASSERT_EQ(e->bins.size(), 10u);
  EXPECT_EQ(e->bins[9].count, 2);
  EXPECT_NEAR(e->bins[9].confidence, 0.95, 1e-12);
  EXPECT_NEAR(e->bins[9].accuracy, 0.5, 1e-12);
  EXPECT_EQ(e->bins[5].count, 1);
  EXPECT_EQ(e->bins[6].count, 1);
  EXPECT_DOUBLE_EQ(e->bins[6].accuracy, 0.0);
  // Empty bins are there, with their edges, counting nothing.
  for (int b : {0, 1, 2, 3, 4, 7, 8}) {
    EXPECT_EQ(e->bins[static_cast<std::size_t>(b)].count, 0) << b;
    EXPECT_DOUBLE_EQ(e->bins[static_cast<std::size_t>(b)].confidence, 0.0) << b;
    EXPECT_NEAR(e->bins[static_cast<std::size_t>(b)].lower, b / 10.0, 1e-12) << b;
    EXPECT_NEAR(e->bins[static_cast<std::size_t>(b)].upper, (b + 1) / 10.0, 1e-12) << b;
  }
}

TEST(CalibrationError, ConfidenceOneFallsInTheLastBinAndZeroInTheFirst) {
  const Expected<CalibrationError> e = calibrationError({{1.0, true}, {0.0, false}});
  ASSERT_TRUE(e.ok()) << e.error();
  EXPECT_EQ(e->bins[9].count, 1);
  EXPECT_EQ(e->bins[0].count, 1);
  // Both honest: sure and right, "no chance" and wrong.
  EXPECT_DOUBLE_EQ(e->ece, 0.0);
}

TEST(CalibrationError, ALowerEdgeBelongsToItsOwnBin) {
  // 0.3 · 10 is 3.0000000000000004 in doubles: still bin 3, [0.3, 0.4).
  const Expected<CalibrationError> e = calibrationError({{0.3, false}, {0.7, true}});
  ASSERT_TRUE(e.ok()) << e.error();
  EXPECT_EQ(e->bins[3].count, 1);
  EXPECT_EQ(e->bins[7].count, 1);
}

TEST(CalibrationError, OneSampleIsItsOwnGap) {
  const Expected<CalibrationError> e = calibrationError({{0.7, false}});
  ASSERT_TRUE(e.ok()) << e.error();
  EXPECT_NEAR(e->ece, 0.7, 1e-12);
  EXPECT_EQ(e->bins[7].count, 1);
  EXPECT_EQ(e->samples, 1);
}

TEST(CalibrationError, HonestConfidenceScoresZero) {
  // Ten answers at 0.8, eight right.
  std::vector<ConfidenceOutcome> outcomes;
  for (int i = 0; i < 10; ++i) outcomes.push_back({0.8, i < 8});
  const Expected<CalibrationError> e = calibrationError(outcomes);
  ASSERT_TRUE(e.ok()) << e.error();
  EXPECT_NEAR(e->ece, 0.0, 1e-12);
}

TEST(CalibrationError, RefusesWhatIsNoProbability) {
  EXPECT_FALSE(calibrationError({}).ok());
  EXPECT_FALSE(calibrationError({{0.5, true}}, 0).ok());
  const Expected<CalibrationError> nan =
      calibrationError({{0.9, true}, {std::numeric_limits<double>::quiet_NaN(), true}});
  ASSERT_FALSE(nan.ok());
  EXPECT_NE(nan.error().find("answer 1"), std::string::npos) << nan.error();
  EXPECT_FALSE(calibrationError({{1.5, true}}).ok());
  EXPECT_FALSE(calibrationError({{-0.1, false}}).ok());
  EXPECT_FALSE(calibrationError({{std::numeric_limits<double>::infinity(), true}}).ok());
}

}  // namespace
}  // namespace ascope
