// Classification answers list every class, most probable first, so that "then …" names the
// runner-up rather than the answer again (the sentiment task listed its classes in class order).
#include <gtest/gtest.h>

#include "engine/models/vision_transformer_config.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/registry/task_factory.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/task.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {
namespace {

void expectRanked(const InferenceOutcome& out) {
  ASSERT_GE(out.ranking.size(), 2u);
  EXPECT_EQ(out.ranking[0].first, out.label);
  EXPECT_DOUBLE_EQ(out.ranking[0].second, out.probability);
  EXPECT_NE(out.ranking[1].first, out.label);
  for (std::size_t i = 1; i < out.ranking.size(); ++i) {
    EXPECT_GE(out.ranking[i - 1].second, out.ranking[i].second);
  }
}

TEST(InferenceRanking, SentimentNamesTheRunnerUpSecond) {
  TrainingConfig config = *makePreset(kSentimentTaskId, "tiny");
  config.builtin = {40, 10, 1};
  auto task = makeTrainingTask(config, torch::Device(torch::kCPU), nullptr);
  ASSERT_TRUE(task.ok()) << task.error();
  (*task)->model().eval();
  // Whichever class an untrained model prefers, the order must follow the probabilities.
  for (const char* text : {"a wonderful moving film", "dull and boring", "plot"}) {
    Expected<InferenceOutcome> out = (*task)->inferText(text);
    ASSERT_TRUE(out.ok()) << out.error();
    expectRanked(*out);
  }
  EXPECT_FALSE((*task)->inferText("   ").ok());  // nothing to classify
}

TEST(InferenceRanking, ImageClassesAreRankedToo) {
  TrainingConfig config = *makePreset(kImageClassificationTaskId, "tiny");
  config.builtin = {20, 10, 1};
  auto task = makeTrainingTask(config, torch::Device(torch::kCPU), nullptr);
  ASSERT_TRUE(task.ok()) << task.error();
  (*task)->model().eval();
  const int side = static_cast<int>(config.task_settings.get<VisionTransformerConfig>().image_size);
  ImageBuffer image{side, side, std::vector<std::uint8_t>(3 * side * side, 90)};
  Expected<InferenceOutcome> out = (*task)->inferImage(image);
  ASSERT_TRUE(out.ok()) << out.error();
  expectRanked(*out);
}

}  // namespace
}  // namespace ascope
