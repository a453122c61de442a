// optimization.average_last_epochs: the mean of the weights after every step of the last epochs,
// scored on the validation split at the end and kept as best.pt only when it beats the best
// epoch's weights (the test split still judges once, afterwards).
#include <gtest/gtest.h>

#include <torch/nn/modules/linear.h>
#include <torch/utils.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/train/trainer.h"
#include "engine/train/weight_average.h"
#include "tests/engine/removed_at_exit.h"
#include "trainer_drain.h"

namespace ascope {
namespace {

void fill(torch::nn::Linear& layer, double value) {
  torch::NoGradGuard no_grad;
  layer->weight.fill_(value);
  layer->bias.fill_(-value);
}

TEST(WeightAverage, IsTheMeanOfTheWeightsAdded) {
  torch::nn::Linear layer(3, 2);
  WeightAverage average;
  for (double value : {1.0, 2.0, 6.0}) {
    fill(layer, value);
    average.add(*layer);
  }
  EXPECT_EQ(average.count(), 3);
  fill(layer, 100.0);
  const torch::Tensor weight_before = layer->weight;  // the same tensor after the copy
  average.copyInto(*layer);
  EXPECT_TRUE(layer->weight.is_same(weight_before));
  EXPECT_TRUE(torch::allclose(layer->weight, torch::full({2, 3}, 3.0)));
  EXPECT_TRUE(torch::allclose(layer->bias, torch::full({2}, -3.0)));
}

TEST(WeightAverage, AModelOfAnotherShapeIsRefused) {
  torch::nn::Linear layer(3, 2);
  WeightAverage average;
  EXPECT_THROW(average.copyInto(*layer), std::logic_error);  // nothing averaged yet
  average.add(*layer);
  torch::nn::Module other;  // four tensors where the average holds two
  other.register_module("first", torch::nn::Linear(3, 2));
  other.register_module("second", torch::nn::Linear(2, 2));
  EXPECT_THROW(average.add(other), std::logic_error);
}

/// The tiny sentiment preset (13 steps an epoch, 3 epochs) with `average_last_epochs`, and the
/// lines its run logged of the average.
RunEvents runTinySentiment(int64_t average_last_epochs, const std::string& name,
                           std::vector<std::string>* average_lines) {
  TrainingConfig c = *makePreset(kSentimentTaskId, "tiny");
  c.out_dir = testing::freshTempPath("ascope_weight_average_" + name);
  c.probe_every_seconds = 1e9;
  c.optimization.average_last_epochs = average_last_epochs;
  RunEvents run = runAndCollect(c);
  EXPECT_EQ(run.state, TrainerState::kFinished);
  for (const std::string& line : run.logs) {
    if (line.rfind("weights averaged", 0) == 0) average_lines->push_back(line);
  }
  return run;
}

TEST(WeightAverage, ARunScoresItsLastEpochsAverageOnValidationBeforeTheTest) {
  std::vector<std::string> average_lines;
  const RunEvents run = runTinySentiment(2, "two_epochs", &average_lines);
  ASSERT_EQ(average_lines.size(), 1u);
  const std::string& line = average_lines[0];
  EXPECT_EQ(line.rfind("weights averaged over the last 26 steps (steps 14–39): val loss ", 0), 0u)
      << line;
  ASSERT_EQ(run.tests.size(), 1u);
  ASSERT_EQ(run.epochs.size(), 3u);
  double best_epoch = 0;
  for (const EpochSummary& e : run.epochs) best_epoch = std::max(best_epoch, e.val_accuracy);
  // The line's verdict is what the final test then used: the average wins only by beating every
  // epoch on the validation split, and then best.pt (the test's weights) holds it.
  const bool average_won = line.find("the average is best.pt from here") != std::string::npos;
  EXPECT_NE(average_won, line.find("best.pt stays the best epoch's") != std::string::npos) << line;
  if (average_won) {
    EXPECT_TRUE(run.tests[0].best_weights) << line;
  }
  const std::string best = " (best epoch's acc ";
  const std::size_t at = line.find(best);
  ASSERT_NE(at, std::string::npos) << line;
  EXPECT_NEAR(std::stod(line.substr(at + best.size())), best_epoch, 5e-4) << line;
}

TEST(WeightAverage, OffUnlessAsked) {
  std::vector<std::string> average_lines;
  const RunEvents run = runTinySentiment(0, "off", &average_lines);
  EXPECT_TRUE(average_lines.empty());
  EXPECT_EQ(run.tests.size(), 1u);
}

}  // namespace
}  // namespace ascope
