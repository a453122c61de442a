// The epoch line's training figures: the mean loss per step and the accuracy over counted
// samples, from zero again after each validation pass.
#include <gtest/gtest.h>

#include "engine/train/training_figure_sums.h"

namespace ascope {
namespace {

TEST(TrainingFigureSums, MeanLossPerStepAccuracyPerCountedSample) {
  TrainingFigureSums sums;
  EXPECT_EQ(sums.meanLoss(), 0);
  EXPECT_EQ(sums.accuracy(), 0);
  sums.add(1.0, 30, 40);
  sums.add(0.5, 0, 0);  // a step that counted nothing weighs nothing in the accuracy
  sums.add(0.0, 10, 10);
  EXPECT_DOUBLE_EQ(sums.meanLoss(), 0.5);
  EXPECT_DOUBLE_EQ(sums.accuracy(), 0.8);
  sums.reset();
  EXPECT_EQ(sums.meanLoss(), 0);
  EXPECT_EQ(sums.accuracy(), 0);
}

}  // namespace
}  // namespace ascope
