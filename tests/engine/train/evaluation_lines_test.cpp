// The lines a run logs for a validation pass and for its final test, made from their figures
// (engine/train/evaluation_lines.h): what people read in log.txt and the Log dock.
#include <gtest/gtest.h>

#include "engine/train/evaluation_lines.h"

namespace ascope {
namespace {

TEST(EvaluationLines, AValidationPassSitsBesideTheStepsSinceTheLastOne) {
  TrainingFigureSums steps;
  steps.add(0.6, 30, 40);
  steps.add(0.4, 35, 40);
  EvaluationOutcome validation;
  validation.loss = 0.5;
  validation.accuracy = 0.8;
  validation.figures.set("bleu", 12.345);
  const EpochSummary s = epochSummary(2, 80, steps, validation, 1e-3);
  EXPECT_EQ(s.epoch, 2);
  EXPECT_EQ(s.step, 80);
  EXPECT_DOUBLE_EQ(s.train_loss, 0.5);
  EXPECT_DOUBLE_EQ(s.train_accuracy, 65.0 / 80.0);
  EXPECT_DOUBLE_EQ(s.lr, 1e-3);
  MetricInfo bleu;
  bleu.key = "bleu";
  bleu.title = "BLEU";
  bleu.decimals = 1;
  EXPECT_EQ(epochLine(s, {bleu}, 0.414),
            "epoch 2 step 80: train loss 0.5000 acc 0.812 | val loss 0.5000 acc 0.800 BLEU 12.3 "
            "(0.41 s)");
}

TEST(EvaluationLines, TheTestLineSaysWhichSplitAndWhichWeights) {
  TestEvaluation t;
  t.samples = 500;
  t.origin = "carved from the training data";
  t.weights_step = 60;
  t.best_weights = true;
  t.loss = 0.25;
  t.accuracy = 0.9;
  t.seconds = 1.2;
  EXPECT_EQ(testLine(t, {}),
            "test (500 samples: carved from the training data; weights of step 60 (best)): loss "
            "0.2500 acc 0.900 (1.20 s)");
  t.split = "validation";
  t.best_weights = false;
  EXPECT_EQ(testLine(t, {}).substr(0, 56),
            "final figure on the validation split (500 samples: carve");
  EXPECT_NE(testLine(t, {}).find("(last)"), std::string::npos);
}

}  // namespace
}  // namespace ascope
