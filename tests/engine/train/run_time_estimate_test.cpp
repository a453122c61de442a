// How long a run will take, before it starts: the arithmetic, the steps a config plans, the work
// of a step as bench counts it (model_flops.h), and a pretrained model's sizes from its
// config.json.
#include "engine/performance/run_time_estimate.h"
#include "engine/models/text_classifier_config.h"
#include "engine/models/vision_transformer_config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "engine/models/model_flops.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

TEST(RunTimeEstimate, StepsTimesWorkOverSpeed) {
  const RunTimeEstimate e = estimateRunTime(2e12, 100, 50);
  EXPECT_DOUBLE_EQ(e.seconds, 4000.0);  // 2e14 FLOP at 5e10 FLOP/s
  EXPECT_EQ(e.steps, 100);
  EXPECT_DOUBLE_EQ(estimateRunTime(2e12, 100, 100).seconds, 2000.0);
  for (const RunTimeEstimate& unknown :
       {estimateRunTime(0, 100, 50), estimateRunTime(1e9, 0, 50), estimateRunTime(1e9, 10, 0),
        estimateRunTime(std::nan(""), 10, 50), estimateRunTime(1e9, 10, -5)}) {
    EXPECT_EQ(unknown.seconds, 0.0);
  }
  EXPECT_DOUBLE_EQ(assumedTrainingGflops("cpu", 2), 2 * kCpuCoreTrainingGflops);
  EXPECT_DOUBLE_EQ(assumedTrainingGflops("cpu", 0), kCpuCoreTrainingGflops);
  EXPECT_DOUBLE_EQ(assumedTrainingGflops("cuda", 2), kCudaTrainingGflops);
}

TEST(RunTimeEstimate, PlannedStepsAndKnownSamples) {
  TrainingConfig c;
  c.batch_size = 32;
  c.epochs = 3;
  EXPECT_EQ(plannedSteps(c, 100), 12);  // 4 batches (the last one short) × 3 epochs
  EXPECT_EQ(plannedSteps(c, 96), 9);
  EXPECT_EQ(plannedSteps(c, 0), 0);
  c.max_steps = 7;
  EXPECT_EQ(plannedSteps(c, 100), 7);
  c.data = "builtin";
  c.builtin.train_count = 1234;
  EXPECT_EQ(knownTrainSamples(c).value_or(-1), 1234);
  c.data = "/data/aclImdb";
  EXPECT_FALSE(knownTrainSamples(c).has_value());
}

TEST(RunTimeEstimate, SeedVitOnTwoCoresIsHoursAndTinyIsNot) {
  const TrainingConfig seed = *makePreset(kImageClassificationTaskId, "seed");
  const Expected<std::optional<RunTimeEstimate>> e = estimateRunTime(seed, 2);
  ASSERT_TRUE(e.ok()) << e.error();
  ASSERT_TRUE(e->has_value());
  // bench's count for the same model and batch: the estimate uses exactly that.
  EXPECT_DOUBLE_EQ(
      (*e)->flops_per_step,
      trainingStepFlops(seed.task_settings.get<VisionTransformerConfig>(), seed.batch_size));
  EXPECT_EQ((*e)->steps, plannedSteps(seed, seed.builtin.train_count));
  EXPECT_GT((*e)->seconds, 4 * 3600.0);
  EXPECT_LT((*e)->seconds, 40 * 3600.0);
  EXPECT_EQ(durationText((*e)->seconds).substr(0, 6), "about ");

  const Expected<std::optional<RunTimeEstimate>> tiny =
      estimateRunTime(*makePreset(kSentimentTaskId, "tiny"), 2);
  ASSERT_TRUE(tiny.ok());
  ASSERT_TRUE(tiny->has_value());
  EXPECT_LT((*tiny)->seconds, 60.0);

  TrainingConfig on_disk = seed;
  on_disk.data = "/data/cifar-10-batches-bin";
  const Expected<std::optional<RunTimeEstimate>> unknown = estimateRunTime(on_disk, 2);
  ASSERT_TRUE(unknown.ok());
  EXPECT_FALSE(unknown->has_value()) << "the steps depend on the dataset's size";
  on_disk.max_steps = 100;
  EXPECT_TRUE(estimateRunTime(on_disk, 2)->has_value());
}

TEST(RunTimeEstimate, PretrainedBertTakesItsSizesFromConfigJson) {
  const fs::path dir = fs::temp_directory_path() / "ascope_run_time_estimate_bert";
  fs::remove_all(dir);
  fs::create_directories(dir);
  TrainingConfig c = *makePreset(kSentimentTaskId, "finetune");
  c.pretrained = dir.string();
  const Expected<std::optional<RunTimeEstimate>> missing = estimateRunTime(c, 2);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("config.json"), std::string::npos) << missing.error();

  std::ofstream(dir / "config.json")
      << R"({"model_type": "bert", "hidden_size": 768, "num_hidden_layers": 12,
             "num_attention_heads": 12, "intermediate_size": 3072, "vocab_size": 30522})";
  const Expected<std::optional<RunTimeEstimate>> bert = estimateRunTime(c, 2);
  ASSERT_TRUE(bert.ok()) << bert.error();
  ASSERT_TRUE(bert->has_value());
  TextClassifierConfig base = c.task_settings.get<TextClassifierConfig>();
  base.d_model = 768, base.layers = 12, base.heads = 12, base.d_ff = 3072, base.vocab_size = 30522;
  EXPECT_DOUBLE_EQ((*bert)->flops_per_step, trainingStepFlops(base, c.batch_size, base.max_len));
  // bert-base, batches of 16 × 128 tokens: about 6 × 85 M × 2048 ≈ 1 TFLOP a step.
  EXPECT_GT((*bert)->flops_per_step, 0.8e12);
  EXPECT_LT((*bert)->flops_per_step, 1.5e12);
  EXPECT_GT((*bert)->seconds, 3600.0) << "one epoch of bert-base on two cores is hours";
  fs::remove_all(dir);
}

TEST(RunTimeEstimate, DurationText) {
  EXPECT_EQ(durationText(30), "under a minute");
  EXPECT_EQ(durationText(25 * 60), "about 25 min");
  EXPECT_EQ(durationText(10 * 3600 + 600), "about 10 h");
  EXPECT_EQ(durationText(5 * 86400), "about 5 days");
}

}  // namespace
}  // namespace ascope
