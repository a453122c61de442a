// The `seed` presets do the seed documents' work: a benchmark against the seeds' own PyTorch code
// compares the same computation only if dropout is where the seeds have it.
#include <gtest/gtest.h>

#include "engine/models/text_classifier_config.h"
#include "engine/models/vision_transformer_config.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {
namespace {

TEST(SeedPresets, DropoutIsWhereTheSeedsHaveIt) {
  // 001's classifier: nn.MultiheadAttention with its default dropout 0, nothing else.
  EXPECT_EQ(makePreset(kSentimentTaskId, "seed")->task_settings.get<TextClassifierConfig>().dropout,
            0.0);
  // 000's ViT: BertConfig's defaults, hidden and attention-probability dropout 0.1.
  EXPECT_EQ(makePreset(kImageClassificationTaskId, "seed")
                ->task_settings.get<VisionTransformerConfig>()
                .dropout,
            0.1);
  // The laptop preset keeps its own regularisation.
  EXPECT_EQ(
      makePreset(kSentimentTaskId, "laptop")->task_settings.get<TextClassifierConfig>().dropout,
      0.1);
}

}  // namespace
}  // namespace ascope
