// Fine-tuning a Hugging Face ViT in the image task, on the tiny random ViT fixture (32×32 inputs,
// patch 8: 16 patches, 2 layers, 4 heads) with the built-in shape images.
#include <gtest/gtest.h>

#include <ATen/ATen.h>

#include <filesystem>
#include <fstream>

#include "engine/inference/checkpoint_inference.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/registry/task_factory.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/task.h"
#include "engine/train/checkpoint.h"
#include "tests/engine/train/fine_tune_runs.h"
#include "tests/support/payload_access.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

std::string tinyVit() {
  return testing::hfFixture("tiny_vit");
}

TrainingConfig imageFineTuneConfig(const std::string& name) {
  TrainingConfig c =
      testing::fineTuneRun(kImageClassificationTaskId, tinyVit(), "ascope_pretrained_image", name);
  c.builtin = {64, 32, 1};
  c.batch_size = 16;
  c.eval_max_samples = 32;
  // The fixture is random, not pretrained: vit-base's 5e-5 would hardly move it in a test's steps.
  c.optimization.lr = 3e-3;
  return c;
}

// The random fixture learns the built-in shapes from its 64 training images in a few epochs of
// batches of 16: across seeds 1–6 the last ten steps' loss ended at 0.26–0.35 of the first ten's
// (as configured here: 2.58 → 0.66).
TEST(PretrainedImageTask, FineTuningLowersTheTrainingLoss) {
  TrainingConfig c = imageFineTuneConfig("learns");
  c.max_steps = 120;
  const EventBatch events = testing::runCollectingEvents(c);
  ASSERT_TRUE(events.failures.empty()) << events.failures[0].message;
  ASSERT_EQ(events.metrics.size(), 120u);
  // Means of ten steps each side: single batches of 16 images are noisy.
  const double first = testing::meanLoss(events.metrics, 0, 10);
  const double last = testing::meanLoss(events.metrics, 110, 10);
  std::cout << "training loss, mean of the first 10 steps " << first << ", of the last 10 " << last
            << "\n";
  EXPECT_LT(last, 0.5 * first) << "loss " << first << " → " << last;
  ASSERT_TRUE(events.positional_encoding.has_value());
  EXPECT_EQ(events.positional_encoding->kind, "learned");
  EXPECT_EQ(events.positional_encoding->positions, 17);  // CLS + 4 × 4 patches
  EXPECT_EQ(events.positional_encoding->grid_rows, 4);
  EXPECT_TRUE(events.positional_encoding->has_cls);
}

TEST(PretrainedImageTask, AttentionHasEveryLayerAndHeadOverCLSAndPatches) {
  const TrainingConfig c = imageFineTuneConfig("attention");
  Expected<std::unique_ptr<Task>> task = makeTrainingTask(c, torch::kCPU, nullptr);
  ASSERT_TRUE(task.ok()) << task.error();
  const AttentionSnapshot snapshot = (*task)->probeAttention(0);
  ASSERT_NO_FATAL_FAILURE(testing::expectEncoderAttention(snapshot, 2, 4));
  const AttentionGroup& g = snapshot.groups[0];
  ASSERT_EQ(g.row_labels.size(), 17u);
  EXPECT_EQ(g.row_labels.front(), "CLS");
  EXPECT_EQ(g.row_labels.back(), "15");
  EXPECT_EQ(g.row_labels, g.col_labels);
  for (const AttentionMap& map : g.maps) {
    ASSERT_EQ(map.rows, 17);
    ASSERT_EQ(map.cols, 17);
    ASSERT_EQ(map.values.size(), 17u * 17u);
  }
  // Every row is a softmax over the keys.
  double row = 0;
  for (int k = 0; k < 17; ++k) row += g.maps[5].values[k];
  EXPECT_NEAR(row, 1.0, 1e-5);
  EXPECT_EQ(testing::imageOf(snapshot.payloads).patch_size, 8);
  EXPECT_EQ(testing::imageOf(snapshot.payloads).grid_rows, 4);
  EXPECT_EQ(testing::imageOf(snapshot.payloads).image.width, 32);
  EXPECT_EQ((*task)->attentionSites().size(), 2u);
  EXPECT_NE((*task)->describe().find("pretrained ViT"), std::string::npos);
}

// The trainer checkpoints the whole ViT: resuming an interrupted run ends with the weights of the
// uninterrupted one.
TEST(PretrainedImageTask, ResumeEndsWithTheSameWeights) {
  TrainingConfig whole = imageFineTuneConfig("resume_whole");
  whole.max_steps = 10;
  ASSERT_TRUE(testing::runCollectingEvents(whole).failures.empty());
  TrainingConfig interrupted = imageFineTuneConfig("resume_parts");
  interrupted.max_steps = 10;
  ASSERT_NO_FATAL_FAILURE(testing::runInterruptedThenResumed(interrupted, 6));

  Expected<std::unique_ptr<Task>> a = makeTrainingTask(whole, torch::kCPU, nullptr);
  Expected<std::unique_ptr<Task>> b = makeTrainingTask(whole, torch::kCPU, nullptr);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_TRUE(loadCheckpoint(whole.out_dir + "/checkpoints/last.pt", (*a)->model(), nullptr).ok());
  ASSERT_TRUE(
      loadCheckpoint(interrupted.out_dir + "/checkpoints/last.pt", (*b)->model(), nullptr).ok());
  const auto pa = (*a)->model().named_parameters();
  const auto pb = (*b)->model().named_parameters();
  ASSERT_EQ(pa.size(), pb.size());
  const at::Tensor trained_cls = pa["cls_token"].clone();
  for (const auto& item : pa) {
    EXPECT_TRUE(at::equal(item.value(), pb[item.key()])) << item.key();
  }
  // … and training moved them.
  Expected<std::unique_ptr<Task>> fresh = makeTrainingTask(whole, torch::kCPU, nullptr);
  ASSERT_TRUE(fresh.ok());
  EXPECT_FALSE(at::equal((*fresh)->model().named_parameters()["cls_token"], trained_cls));
}

TEST(PretrainedImageTask, ATrainedRunClassifiesAnImage) {
  TrainingConfig c = imageFineTuneConfig("infer");
  c.max_steps = 4;
  const EventBatch events = testing::runCollectingEvents(c);
  ASSERT_TRUE(events.failures.empty()) << events.failures[0].message;
  EXPECT_TRUE(fs::exists(c.out_dir + "/pretrained/config.json"));
  EXPECT_TRUE(fs::exists(c.out_dir + "/pretrained/preprocessor_config.json"));
  EXPECT_TRUE(fs::exists(c.out_dir + "/classes.json"));

  InferenceRequest request;
  request.run_dir = c.out_dir;
  // Any size: the model's image processor resizes it, as it resized the training images.
  request.image_width = 20;
  request.image_height = 12;
  request.image_planar.assign(3 * 20 * 12, 0);
  for (std::size_t i = 0; i < request.image_planar.size(); ++i) {
    request.image_planar[i] = static_cast<std::uint8_t>(i * 7);
  }
  Expected<InferenceAnswer> answer = inferFromCheckpoint(request);
  ASSERT_TRUE(answer.ok()) << answer.error();
  EXPECT_EQ(answer->task, kImageClassificationTaskId);
  double total = 0;
  for (const auto& [label, p] : answer->ranking) total += p;
  EXPECT_NEAR(total, 1.0, 1e-5);
  EXPECT_EQ(answer->ranking.front().first, answer->label);
  ASSERT_EQ(answer->attention.groups.size(), 1u);
  EXPECT_EQ(answer->attention.groups[0].row_labels.size(), 17u);
  // Drawn over the image the model saw.
  EXPECT_EQ(testing::imageOf(answer->attention.payloads).image.width, 32);
  EXPECT_EQ(testing::imageOf(answer->attention.payloads).image.pixels.size(), 3u * 32 * 32);
}

TEST(PretrainedImageTask, ABertFolderIsRefusedForImages) {
  TrainingConfig c = imageFineTuneConfig("bert");
  c.pretrained = testing::hfFixture("tiny_bert");
  ASSERT_TRUE(validateConfig(c).ok()) << validateConfig(c).error();
  Expected<std::unique_ptr<Task>> task = makeTrainingTask(c, torch::kCPU, nullptr);
  ASSERT_FALSE(task.ok());
  EXPECT_NE(task.error().find("a bert model; the image task fine-tunes a ViT model"),
            std::string::npos)
      << task.error();
}

}  // namespace
}  // namespace ascope
