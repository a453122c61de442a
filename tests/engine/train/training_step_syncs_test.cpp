// No training step of any task makes the host wait for the device: on a GPU each wait stops the
// queue (the last CUDA measurement: the GPU idle while the host waited at every step). The waits
// are counted on this CPU by the operators that would make them
// (engine/device/host_wait_counter.h); the step's figures are read apart, every
// read_figures_every_steps steps.
#include <gtest/gtest.h>
#include <torch/types.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/device/host_wait_counter.h"
#include "engine/tasks/digit_order/digit_order_descriptor.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/image_classification/random_crop_flip.h"
#include "engine/tasks/letter_reversal/letter_reversal_descriptor.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "engine/train/training_session.h"
#include "fine_tune_runs.h"
#include "tests/engine/removed_at_exit.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

struct StepCase {
  const char* task;
  const char* preset;
  const char* fixture;  ///< a Hugging Face fixture to fine-tune, or ""
  /// Whether a validation pass is one read: the translator's greedy decoding for BLEU reads once
  /// per generated token (whether every sentence has ended).
  bool one_read_validation;
};

const StepCase kCases[] = {
    {kImageClassificationTaskId, "tiny", "", true},
    {kSentimentTaskId, "tiny", "", true},
    {kTranslationTaskId, "tiny", "", false},
    {kDigitOrderTaskId, "tiny", "", true},
    {kLetterReversalTaskId, "tiny", "", false},
    {kSentimentTaskId, "finetune", "tiny_bert", true},
    {kImageClassificationTaskId, "finetune", "tiny_vit", true},
};

/// The step's waits a GPU would make. Not counted: LibTorch 2.x's CPU embedding backward with a
/// padding index calls nonzero, where its CUDA kernel sorts instead; and on a GPU paddedEmbedding
/// does not take that backward at all (engine/nn/padded_embedding.h).
int64_t stepWaitsOnAGpu(const HostWaitCounter& counter) {
  return counter.count(kTrainingStepRegion) -
         counter.count(kTrainingStepRegion,
                       "aten::nonzero in autograd::engine::evaluate_function: EmbeddingBackward0");
}

std::string caseName(const StepCase& c) {
  return std::string(c.task) + "/" + c.preset;
}

/// Eight steps of `c`, validated after steps 4 and 8, a checkpoint after step 5, the figures read
/// every 3 steps.
TrainingConfig eightSteps(const StepCase& c, const std::string& name) {
  TrainingConfig config = *makePreset(c.task, c.preset);
  if (*c.fixture != '\0') config.pretrained = testing::hfFixture(c.fixture);
  config.out_dir = testing::freshTempPath("ascope_step_syncs_" + name);
  config.builtin = {320, 40, 1};
  config.batch_size = 16;
  config.max_steps = 8;
  config.eval_every_steps = 4;
  config.eval_max_samples = 40;
  if (const TaskDescriptor* task = TaskRegistry::instance().find(c.task);
      task->set_figure_samples) {
    task->set_figure_samples(config, 8);
  }
  config.checkpoint_every_steps = 5;
  config.read_figures_every_steps = 3;
  config.probe_every_steps = 4;
  config.snapshot_every_steps = 4;
  config.probe_every_seconds = 1e9;
  config.probe_time_share = 1.0;
  config.threads = 1;
  return config;
}

TEST(TrainingStepSyncs, NoStepOfAnyTaskWaitsForTheDevice) {
  for (const StepCase& c : kCases) {
    SCOPED_TRACE(caseName(c));
    const TrainingConfig config = eightSteps(c, std::string(c.task) + "_" + c.preset);
    HostWaitCounter counter;
    const EventBatch events = testing::runCollectingEvents(config);
    ASSERT_TRUE(events.failures.empty()) << events.failures.front().message;
    EXPECT_EQ(stepWaitsOnAGpu(counter), 0) << counter.text(kTrainingStepRegion);
    // Every step reported, in order, with a finite loss, from fewer reads than steps.
    ASSERT_EQ(events.metrics.size(), 8u);
    for (std::size_t i = 0; i < events.metrics.size(); ++i) {
      EXPECT_EQ(events.metrics[i].step, static_cast<int64_t>(i + 1));
      EXPECT_TRUE(std::isfinite(events.metrics[i].loss));
    }
    const int64_t reads = counter.count(kStepFiguresRegion);
    EXPECT_GE(reads, 2) << counter.text(kStepFiguresRegion);
    EXPECT_LT(reads, 8) << counter.text(kStepFiguresRegion);
    // Two validation passes, after steps 4 and 8.
    if (c.one_read_validation) {
      EXPECT_EQ(counter.count(kValidationRegion), 2) << counter.text(kValidationRegion);
    } else {
      EXPECT_GE(counter.count(kValidationRegion), 2) << counter.text(kValidationRegion);
    }
  }
}

TEST(TrainingStepSyncs, FiguresReadLaterAreTheFiguresReadAtEveryStep) {
  // Reading is switchable and changes no number: the same run read every step and every 3 steps.
  for (const StepCase& c : {kCases[0], kCases[2]}) {
    SCOPED_TRACE(caseName(c));
    TrainingConfig every_step = eightSteps(c, std::string("every_") + c.task);
    every_step.read_figures_every_steps = 1;
    const TrainingConfig later = eightSteps(c, std::string("later_") + c.task);
    const EventBatch a = testing::runCollectingEvents(every_step);
    const EventBatch b = testing::runCollectingEvents(later);
    ASSERT_EQ(a.metrics.size(), b.metrics.size());
    for (std::size_t i = 0; i < a.metrics.size(); ++i) {
      EXPECT_EQ(a.metrics[i].loss, b.metrics[i].loss) << "step " << a.metrics[i].step;
      EXPECT_EQ(a.metrics[i].accuracy, b.metrics[i].accuracy) << "step " << a.metrics[i].step;
    }
  }
}

TEST(TrainingStepSyncs, ANonFiniteLossFoundLateEndsTheRunNamingItsStep) {
  TrainingConfig config = eightSteps(kCases[1], "late_nan");
  config.inject_nan_at_step = 2;
  config.checkpoint_every_steps = 1000;
  config.eval_every_steps = 0;
  config.read_figures_every_steps = 4;
  const EventBatch events = testing::runCollectingEvents(config);
  ASSERT_EQ(events.failures.size(), 1u);
  EXPECT_EQ(events.failures[0].step, 2);
  EXPECT_NE(events.failures[0].message.find("not finite at step 2"), std::string::npos)
      << events.failures[0].message;
  EXPECT_NE(events.failures[0].message.find("read at step 4"), std::string::npos)
      << events.failures[0].message;
  // The step before it is reported, none from it on; no checkpoint holds the spoilt weights.
  ASSERT_EQ(events.metrics.size(), 1u);
  EXPECT_EQ(events.metrics[0].step, 1);
  EXPECT_FALSE(fs::exists(fs::path(config.out_dir) / "checkpoints" / "last.pt"));
}

TEST(TrainingStepSyncs, CropsAreTheImagesWindowsFlippedOrNot) {
  // The gather against the crops cut one image at a time, with the same draws.
  const at::Tensor images = at::rand({5, 3, 8, 6});
  torch::manual_seed(3);
  const at::Tensor cropped = randomCropFlip(images);
  torch::manual_seed(3);
  const at::Tensor offsets = torch::randint(0, 9, {5, 2}, torch::kLong);
  const at::Tensor flips = torch::rand({5}) < 0.5;
  const at::Tensor padded = at::constant_pad_nd(images, {4, 4, 4, 4}, 0);
  for (int64_t i = 0; i < 5; ++i) {
    at::Tensor expected = padded[i]
                              .narrow(1, offsets[i][0].item<int64_t>(), 8)
                              .narrow(2, offsets[i][1].item<int64_t>(), 6);
    if (flips[i].item<bool>()) expected = expected.flip({2});
    EXPECT_TRUE(at::equal(cropped[i], expected)) << "image " << i;
  }
  EXPECT_TRUE(flips.any().item<bool>() && !flips.all().item<bool>()) << "draw both kinds";
}

}  // namespace
}  // namespace ascope
