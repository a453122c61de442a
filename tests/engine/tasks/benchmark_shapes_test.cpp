// What `bench` needs to do the seeds' work: analytic FLOP counts, the benchmark shapes (random
// words over a fixed vocabulary, fixed padding), and the length bucketing translation trains with.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/models/model_flops.h"
#include "engine/models/text_classifier_config.h"
#include "engine/models/translator_config.h"
#include "engine/models/vision_transformer_config.h"
#include "engine/performance/step_benchmark.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/registry/task_factory.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/task.h"
#include "engine/tasks/translation/translation_descriptor.h"

namespace ascope {
namespace {

TEST(ModelFlops, VisionTransformerWorkedExample) {
  // 8 × 8 images, patch 4: 4 patches + CLS = 5 tokens, hidden 8, MLP 16, 1 layer, 3 classes.
  VisionTransformerConfig c;
  c.image_size = 8, c.patch_size = 4, c.hidden = 8, c.heads = 2, c.mlp_dim = 16, c.layers = 1;
  c.num_classes = 3;
  // Per image: patches 2·4·8·48 = 3072; QKV 2·5·24·8 = 1920, scores and values 2·(2·5·5·8) = 800,
  // output 2·5·8·8 = 640, MLP 2·(2·5·16·8) = 2560; head 2·3·8 = 48. Sum 9040; ×2 images ×3.
  EXPECT_DOUBLE_EQ(trainingStepFlops(c, 2), 54240.0);
}

TEST(ModelFlops, TextClassifierWorkedExample) {
  TextClassifierConfig c;
  c.d_model = 8, c.heads = 2, c.d_ff = 16, c.layers = 1, c.num_classes = 2;
  // Per review of 5 tokens: 1920 + 800 + 640 + 2560 (as above) + head 2·2·8 = 32 → 5952.
  EXPECT_DOUBLE_EQ(trainingStepFlops(c, 2, 5), 2 * 5952 * 3.0);
}

TEST(ModelFlops, TranslatorWorkedExample) {
  TranslatorConfig c;
  c.d_model = 8, c.heads = 2, c.d_ff = 16, c.encoder_layers = 1, c.decoder_layers = 1;
  c.target_vocab_size = 10;
  // 3 source tokens: QKV 2·3·24·8 = 1152, scores+values 2·(2·3·3·8) = 288, output 384, FF 1536.
  // 2 decoder tokens: self 768 + 128 + 256; cross: query 256, keys and values of the 3 source
  // tokens 2·3·16·8 = 768, scores+values 2·(2·2·3·8) = 192, output 256; FF 1024.
  // Projection 2·2·10·8 = 320. Sum 3360 + 3648 + 320 = 7328, ×3.
  EXPECT_DOUBLE_EQ(trainingStepFlops(c, 1, 3, 2), 21984.0);
  // The seed's translation step (batch 8, 350 + 350 tokens, vocabulary 22000): about 1 TFLOP.
  TranslatorConfig seed;
  seed.target_vocab_size = 22000;
  EXPECT_NEAR(trainingStepFlops(seed, 8, 350, 350) / 1e9, 1037.49, 0.01);
}

TEST(LengthBucketing, OnlyTranslationPresetsBucket) {
  for (const char* preset : {"seed", "laptop", "tiny"}) {
    EXPECT_TRUE(makePreset(kTranslationTaskId, preset)->bucket_by_length) << preset;
    EXPECT_FALSE(makePreset(kSentimentTaskId, preset)->bucket_by_length) << preset;
    EXPECT_FALSE(makePreset(kImageClassificationTaskId, preset)->bucket_by_length) << preset;
  }
}

TEST(LengthBucketing, TasksReportTheLengthsTheirBatchesCost) {
  TrainingConfig config = *makePreset(kTranslationTaskId, "tiny");
  auto task = makeTrainingTask(config, torch::Device(torch::kCPU), nullptr);
  ASSERT_TRUE(task.ok()) << task.error();
  const std::vector<int64_t> lengths = (*task)->trainingLengths();
  ASSERT_EQ(static_cast<int64_t>(lengths.size()), (*task)->trainSize());
  // At least [SOS] a word [EOS] and [SOS] a word; the generated phrases differ in length.
  EXPECT_GE(*std::min_element(lengths.begin(), lengths.end()), 5);
  EXPECT_LT(*std::min_element(lengths.begin(), lengths.end()),
            *std::max_element(lengths.begin(), lengths.end()));
  TrainingConfig sentiment = *makePreset(kSentimentTaskId, "tiny");
  sentiment.builtin = {40, 10, 1};
  auto reviews = makeTrainingTask(sentiment, torch::Device(torch::kCPU), nullptr);
  ASSERT_TRUE(reviews.ok()) << reviews.error();
  // Reviews: the words each keeps, never more than max_len; the generated reviews vary.
  const std::vector<int64_t> words = (*reviews)->trainingLengths();
  ASSERT_EQ(static_cast<int64_t>(words.size()), (*reviews)->trainSize());
  const int64_t max_len = sentiment.task_settings.get<TextClassifierConfig>().max_len;
  EXPECT_GE(*std::min_element(words.begin(), words.end()), 1);
  EXPECT_LE(*std::max_element(words.begin(), words.end()), max_len);
  EXPECT_LT(*std::min_element(words.begin(), words.end()),
            *std::max_element(words.begin(), words.end()));
}

TEST(BenchmarkShapes, RandomWordsFixTheVocabularyAndLength) {
  // FLOP follow from the shapes: if the task ignored vocab or pad_to, the count would differ.
  TrainingConfig translate = *makePreset(kTranslationTaskId, "tiny");
  Expected<StepBenchmarkResult> pairs = benchmarkTrainingSteps(translate, 1, 0, {100, 20});
  ASSERT_TRUE(pairs.ok()) << pairs.error();
  TranslatorConfig t = translate.task_settings.get<TranslatorConfig>();
  t.target_vocab_size = 100;
  EXPECT_DOUBLE_EQ(pairs->gflop_per_step * 1e9, trainingStepFlops(t, 32, 20, 20));
  EXPECT_NEAR(pairs->gflop_per_step, 0.1056768, 1e-9);

  TrainingConfig imdb = *makePreset(kSentimentTaskId, "tiny");  // max_len 40
  Expected<StepBenchmarkResult> reviews = benchmarkTrainingSteps(imdb, 1, 0, {1000, 0});
  ASSERT_TRUE(reviews.ok()) << reviews.error();
  EXPECT_DOUBLE_EQ(reviews->gflop_per_step * 1e9,
                   trainingStepFlops(imdb.task_settings.get<TextClassifierConfig>(), 32, 40));
}

TEST(BenchmarkShapes, PaddingAppliesToRealPairsToo) {
  TrainingConfig translate = *makePreset(kTranslationTaskId, "tiny");  // seq_len 24
  Expected<StepBenchmarkResult> padded = benchmarkTrainingSteps(translate, 1, 0, {0, 24});
  ASSERT_TRUE(padded.ok()) << padded.error();
  EXPECT_GT(padded->gflop_per_step, 0.0);
  Expected<StepBenchmarkResult> unpadded = benchmarkTrainingSteps(translate, 1, 0, {});
  ASSERT_TRUE(unpadded.ok()) << unpadded.error();
  EXPECT_LT(unpadded->gflop_per_step, padded->gflop_per_step);
}

TEST(BenchmarkShapes, ShapesATaskCannotHonourAreRefused) {
  TrainingConfig translate = *makePreset(kTranslationTaskId, "tiny");
  Expected<StepBenchmarkResult> r = benchmarkTrainingSteps(translate, 1, 0, {0, 30});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "pad_to 30 is longer than the model's seq_len 24");
  r = benchmarkTrainingSteps(translate, 1, 0, {0, 3});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("pad_to 3 is shorter than the longest pair of builtin, which needs "),
            std::string::npos)
      << r.error();
  r = benchmarkTrainingSteps(translate, 1, 0, {4, 0});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("vocab must be at least 5 for translation"), std::string::npos)
      << r.error();
  r = benchmarkTrainingSteps(*makePreset(kSentimentTaskId, "tiny"), 1, 0, {0, 50});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("pad_to is for translation"), std::string::npos) << r.error();
  r = benchmarkTrainingSteps(*makePreset(kImageClassificationTaskId, "tiny"), 1, 0, {1000, 0});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("vocab and pad_to are for text tasks"), std::string::npos) << r.error();
}

}  // namespace
}  // namespace ascope
