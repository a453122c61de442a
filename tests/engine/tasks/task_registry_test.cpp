// The task registry: the built-in tasks are there with everything the front ends read, unknown ids
// get a message that lists the known ones, and a task registered at run time (the test-only echo
// task) trains through the ordinary Trainer.
#include <gtest/gtest.h>

#include <filesystem>

#include "echo_task.h"
#include "engine/models/text_classifier_config.h"
#include "engine/models/translator_config.h"
#include "engine/models/vision_transformer_config.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/image_classification/image_data_settings.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/translation/translation_data_settings.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "engine/train/trainer.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

TEST(TaskRegistry, BuiltInTasksComeFirstAndAreComplete) {
  const std::vector<const TaskDescriptor*> tasks = TaskRegistry::instance().all();
  ASSERT_GE(tasks.size(), 3u);
  EXPECT_EQ(tasks[0]->id, kImageClassificationTaskId);
  EXPECT_EQ(tasks[1]->id, kSentimentTaskId);
  EXPECT_EQ(tasks[2]->id, kTranslationTaskId);
  for (const TaskDescriptor* task : tasks) {
    EXPECT_FALSE(task->title.empty()) << task->id;
    for (const PresetInfo& preset : task->presets) {
      Expected<TrainingConfig> config = makePreset(task->id, preset.name);
      ASSERT_TRUE(config.ok()) << task->id << " " << preset.name;
      EXPECT_EQ(config->task, task->id);
      EXPECT_EQ(config->preset, preset.name);
      EXPECT_TRUE(validateConfig(*config).ok()) << validateConfig(*config).error();
    }
  }
  EXPECT_EQ(TaskRegistry::instance().find(kImageClassificationTaskId)->input, TaskInput::kImage);
  EXPECT_TRUE(TaskRegistry::instance().find(kTranslationTaskId)->sample_terms.free_text);
  EXPECT_EQ(TaskRegistry::instance().find(kTranslationTaskId)->headline().key, "bleu");
  EXPECT_EQ(TaskRegistry::instance().find(kSentimentTaskId)->headline().key, "accuracy");
  EXPECT_TRUE(TaskRegistry::instance().find(kTranslationTaskId)->set_languages);
  EXPECT_FALSE(TaskRegistry::instance().find(kSentimentTaskId)->set_languages);
}

TEST(TaskRegistry, UnknownIdsAndPresetsNameTheChoices) {
  Expected<const TaskDescriptor*> missing = findTask("chess");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("unknown task \"chess\" (expected vit, imdb"), std::string::npos)
      << missing.error();
  Expected<TrainingConfig> preset = makePreset(kSentimentTaskId, "huge");
  ASSERT_FALSE(preset.ok());
  EXPECT_EQ(preset.error(),
            "unknown preset \"huge\" (expected laptop, tiny, seed, real or finetune)");
  TrainingConfig config = *makePreset(kSentimentTaskId, "tiny");
  config.task = "chess";
  EXPECT_FALSE(validateConfig(config).ok());
}

// The real-data presets change how the models train, not (for sentiment) which model: "real" is the
// seed's classifier, so its accuracy compares with the seed's on the same reviews.
TEST(TaskRegistry, RealDataPresetsAreListedAndKeepTheirModels) {
  const TaskDescriptor* sentiment = TaskRegistry::instance().find(kSentimentTaskId);
  ASSERT_NE(sentiment, nullptr);
  EXPECT_TRUE(sentiment->hasPreset("real"));
  const TrainingConfig real = *makePreset(kSentimentTaskId, "real");
  const TrainingConfig seed = *makePreset(kSentimentTaskId, "seed");
  EXPECT_EQ(real.task_settings.get<TextClassifierConfig>().d_model, 64);
  EXPECT_EQ(real.task_settings.get<TextClassifierConfig>().heads, 2);
  EXPECT_EQ(real.task_settings.get<TextClassifierConfig>().layers, 1);
  EXPECT_EQ(real.task_settings.get<TextClassifierConfig>().d_ff, 128);
  EXPECT_GT(
      real.task_settings.get<TextClassifierConfig>().max_len,
      seed.task_settings.get<TextClassifierConfig>().max_len);  // real reviews run past 100 words
  EXPECT_EQ(real.eval_max_samples, 0);  // its figures are on the whole split
  EXPECT_TRUE(real.bucket_by_length);   // long limits cost only what the reviews use

  // ViT on the photographs: the seed's patch size, on a grid two cores can train in a lecture.
  const TaskDescriptor* vit = TaskRegistry::instance().find(kImageClassificationTaskId);
  ASSERT_NE(vit, nullptr);
  EXPECT_TRUE(vit->hasPreset("real"));
  const TrainingConfig photos = *makePreset(kImageClassificationTaskId, "real");
  const VisionTransformerConfig& photo_model = photos.task_settings.get<VisionTransformerConfig>();
  EXPECT_EQ(photo_model.patch_size, makePreset(kImageClassificationTaskId, "seed")
                                        ->task_settings.get<VisionTransformerConfig>()
                                        .patch_size);
  EXPECT_LT(photo_model.patch_size,
            makePreset(kImageClassificationTaskId, "laptop")
                ->task_settings.get<VisionTransformerConfig>()
                .patch_size);  // real objects need finer patches than the built-in shapes
  EXPECT_TRUE(photos.task_settings.get<ImageDataSettings>().augment);
  EXPECT_EQ(photos.eval_max_samples, 0);
  EXPECT_TRUE(validateConfig(photos).ok());

  const TaskDescriptor* translation = TaskRegistry::instance().find(kTranslationTaskId);
  ASSERT_NE(translation, nullptr);
  EXPECT_TRUE(translation->hasPreset("real"));
  const TrainingConfig corpus = *makePreset(kTranslationTaskId, "real");
  const TrainingConfig laptop = *makePreset(kTranslationTaskId, "laptop");
  // Europarl pairs run to about 30 tokens with punctuation: 24 dropped one pair in thirteen.
  EXPECT_GE(corpus.task_settings.get<TranslatorConfig>().seq_len, 32);
  // A vocabulary a CPU can afford.
  EXPECT_GT(corpus.task_settings.get<TranslationDataSettings>().min_freq,
            laptop.task_settings.get<TranslationDataSettings>().min_freq);
  EXPECT_EQ(corpus.eval_max_samples, 0);
  EXPECT_LT(corpus.task_settings.get<TranslatorConfig>().d_model,
            makePreset(kTranslationTaskId, "seed")->task_settings.get<TranslatorConfig>().d_model);
}

TEST(TaskRegistry, RefusesDuplicatesAndIncompleteTasks) {
  TaskDescriptor copy = *TaskRegistry::instance().find(kSentimentTaskId);
  EXPECT_FALSE(TaskRegistry::instance().add(copy).ok());
  copy.id = "incomplete";
  copy.make_training_task = nullptr;
  EXPECT_FALSE(TaskRegistry::instance().add(copy).ok());
  EXPECT_EQ(TaskRegistry::instance().find("incomplete"), nullptr);
}

TEST(TaskRegistry, AnEvaluationPassReportsOnlyDeclaredFigures) {
  // The translation declares its greedy scoring beside a beam; evaluate names no metric itself.
  const TaskDescriptor* translation = TaskRegistry::instance().find(kTranslationTaskId);
  ASSERT_NE(translation, nullptr);
  ASSERT_EQ(translation->extra_evaluation_passes.size(), 1u);
  EXPECT_EQ(translation->extra_evaluation_passes[0].prefix, "greedy_");
  EXPECT_EQ(translation->extra_evaluation_passes[0].beam_width, 1);
  EXPECT_EQ(translation->metric("greedy_bleu").title, "greedy BLEU");
  EXPECT_TRUE(TaskRegistry::instance().find(kSentimentTaskId)->extra_evaluation_passes.empty());

  TaskDescriptor copy = *translation;
  copy.id = "undeclared_pass";
  copy.extra_evaluation_passes = {{"sampled_", 1, {"bleu"}}};
  const Status refused = TaskRegistry::instance().add(copy);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error(),
            "task \"undeclared_pass\": its evaluation pass \"sampled_\" reports bleu as "
            "sampled_bleu, and the task must declare both figures");
  EXPECT_EQ(TaskRegistry::instance().find("undeclared_pass"), nullptr);
}

TEST(TaskRegistry, ModelShapeRoundTrips) {
  for (const TaskDescriptor* task : TaskRegistry::instance().all()) {
    TrainingConfig config = *makePreset(task->id, task->presets.front().name);
    ModelShape shape = task->model_shape(config);
    shape.heads = 2;
    shape.d_model = 48;
    task->set_model_shape(config, shape);
    EXPECT_EQ(task->model_shape(config).d_model, 48) << task->id;
    EXPECT_EQ(task->model_shape(config).heads, 2) << task->id;
  }
}

TEST(TaskRegistry, ARegisteredTaskTrainsLikeABuiltInOne) {
  ASSERT_TRUE(registerEchoTask().ok());
  ASSERT_TRUE(registerEchoTask().ok());  // once only
  Expected<TrainingConfig> config = makePreset(kEchoTaskId, "quick");
  ASSERT_TRUE(config.ok()) << config.error();
  const fs::path dir = fs::path(::testing::TempDir()) / "echo_registry_run";
  fs::remove_all(dir);
  config->out_dir = dir.string();
  config->max_steps = 12;
  Trainer trainer(*config);
  ASSERT_TRUE(trainer.start().ok());
  trainer.wait();
  EventBatch events = trainer.drainEvents();
  ASSERT_FALSE(events.states.empty());
  EXPECT_EQ(events.states.back().state, TrainerState::kFinished);
  ASSERT_TRUE(events.attention != nullptr);
  ASSERT_FALSE(events.attention->samples.empty());
  EXPECT_EQ(events.attention->samples.front().task, kEchoTaskId);
  ASSERT_TRUE(events.run_folder.has_value());
  EXPECT_TRUE(fs::equivalent(*events.run_folder, dir));
  EXPECT_EQ(events.metrics.back().step, 12);
  EXPECT_TRUE(fs::exists(dir / "checkpoints" / "last.pt"));
}

}  // namespace
}  // namespace ascope
