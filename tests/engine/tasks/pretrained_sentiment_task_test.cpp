// Fine-tuning a Hugging Face BERT in the sentiment task, on the tiny random BERT fixture (2 layers,
// 4 heads, a 106-token vocabulary that holds the built-in reviews' sentiment words).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "engine/inference/checkpoint_inference.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/registry/task_factory.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/task.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "tests/engine/train/fine_tune_runs.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

std::string tinyBert() {
  return testing::hfFixture("tiny_bert");
}

TrainingConfig sentimentFineTuneConfig(const std::string& name) {
  TrainingConfig c =
      testing::fineTuneRun(kSentimentTaskId, tinyBert(), "ascope_pretrained_sentiment", name);
  c.builtin = {320, 40, 1};
  c.eval_max_samples = 40;
  // The fixture is random, not pretrained: bert-base's 1e-5 would hardly move it in a test's steps.
  c.optimization.lr = 1e-3;
  return c;
}

std::vector<std::string> sentimentTrainRows(const std::string& run_dir) {
  std::ifstream in(run_dir + "/metrics.csv");
  std::vector<std::string> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.find(",train,") != std::string::npos) {
      // step,epoch,split,loss,accuracy,lr — samples/s differs between runs and is cut off.
      std::size_t cut = 0;
      for (int commas = 0; commas < 6; ++commas) cut = line.find(',', cut) + 1;
      rows.push_back(line.substr(0, cut));
    }
  }
  return rows;
}

// The fixture's 106-token vocabulary misses most of the built-in reviews' words, so what it can
// learn in a few dozen steps is the training reviews themselves: two batches of them, seen forty
// times each. Across seeds 1–8 the last ten steps' loss ended at 0.03–0.29 of the first ten's.
TEST(PretrainedSentimentTask, FineTuningLowersTheTrainingLoss) {
  TrainingConfig c = sentimentFineTuneConfig("learns");
  c.builtin.train_count = 32;
  c.optimization.lr = 3e-3;
  c.max_steps = 80;
  const EventBatch events = testing::runCollectingEvents(c);
  ASSERT_TRUE(events.failures.empty()) << events.failures[0].message;
  ASSERT_EQ(events.metrics.size(), 80u);
  // Ten steps each side: single batches of 16 reviews are noisy, means of ten are not.
  const double first = testing::meanLoss(events.metrics, 0, 10);
  const double last = testing::meanLoss(events.metrics, 70, 10);
  EXPECT_LT(last, 0.5 * first) << "loss " << first << " → " << last;
  ASSERT_TRUE(events.positional_encoding.has_value());
  EXPECT_EQ(events.positional_encoding->kind, "learned");
  EXPECT_EQ(events.positional_encoding->positions, 64);  // the fixture's max_position_embeddings
  EXPECT_EQ(events.positional_encoding->dims, 32);
}

TEST(PretrainedSentimentTask, AttentionHasEveryLayerAndHeadWithWordPieceLabels) {
  const TrainingConfig c = sentimentFineTuneConfig("attention");
  Expected<std::unique_ptr<Task>> task = makeTrainingTask(c, torch::kCPU, nullptr);
  ASSERT_TRUE(task.ok()) << task.error();
  const AttentionSnapshot snapshot = (*task)->probeAttention(0);
  ASSERT_NO_FATAL_FAILURE(testing::expectEncoderAttention(snapshot, 2, 4));
  const AttentionGroup& g = snapshot.groups[0];
  ASSERT_GE(g.row_labels.size(), 3u);
  EXPECT_EQ(g.row_labels.front(), "[CLS]");
  EXPECT_EQ(g.row_labels.back(), "[SEP]");
  EXPECT_EQ(g.row_labels, g.col_labels);
  for (const std::string& label : g.row_labels) EXPECT_NE(label, "[PAD]");
  EXPECT_EQ(g.maps[0].rows, static_cast<int>(g.row_labels.size()));
  EXPECT_EQ(g.maps[0].cols, static_cast<int>(g.col_labels.size()));
  // Head ablation addresses the same layers.
  EXPECT_EQ((*task)->attentionSites().size(), 2u);
}

// A GUI fine-tune of tiny_bert showed no learning and nothing said why: its 106 word
// pieces make most of the built-in reviews' words [UNK]. Said before training; reviews written in
// its own words are not warned about.
TEST(PretrainedSentimentTask, AVocabularyThatMissesMostWordsIsSaidBeforeTraining) {
  std::vector<std::string> warnings;
  const TrainingConfig builtin = sentimentFineTuneConfig("coverage_builtin");
  ASSERT_TRUE(makeTrainingTask(builtin, torch::kCPU, &warnings).ok());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find(tinyBert() + ": its vocabulary (106 word pieces) knows only "),
            std::string::npos)
      << warnings[0];
  EXPECT_NE(warnings[0].find("become [UNK]"), std::string::npos) << warnings[0];

  const fs::path csv = fs::temp_directory_path() / "ascope_pretrained_sentiment_own_words.csv";
  {
    std::ofstream out(csv);
    // Different reviews (repeated ones are read once), every word in the fixture's vocabulary.
    out << "text,label\n";
    for (const char* thing : {"film", "movie", "story", "plot", "actor", "scene"}) {
      for (const char* how : {"very", "so", "more"}) {
        for (const char* good : {"good", "great", "fun"}) {
          out << "the " << thing << " was " << how << " " << good << ",1\n";
        }
        for (const char* bad : {"bad", "boring", "slow"}) {
          out << "the " << thing << " was " << how << " " << bad << ",0\n";
        }
      }
    }
  }
  TrainingConfig own = sentimentFineTuneConfig("coverage_own");
  own.data = csv.string();
  warnings.clear();
  Expected<std::unique_ptr<Task>> task = makeTrainingTask(own, torch::kCPU, &warnings);
  ASSERT_TRUE(task.ok()) << task.error();
  for (const std::string& w : warnings) EXPECT_EQ(w.find("[UNK]"), std::string::npos) << w;
  fs::remove(csv);
}

TEST(PretrainedSentimentTask, ATrainedRunAnswersAText) {
  TrainingConfig c = sentimentFineTuneConfig("infer");
  c.max_steps = 5;
  const EventBatch events = testing::runCollectingEvents(c);
  ASSERT_TRUE(events.failures.empty()) << events.failures[0].message;
  EXPECT_TRUE(fs::exists(c.out_dir + "/pretrained/config.json"));
  EXPECT_TRUE(fs::exists(c.out_dir + "/pretrained/vocab.txt"));

  InferenceRequest request;
  request.run_dir = c.out_dir;
  request.text = "a great film, i love it";
  Expected<InferenceAnswer> answer = inferFromCheckpoint(request);
  ASSERT_TRUE(answer.ok()) << answer.error();
  EXPECT_EQ(answer->task, kSentimentTaskId);
  EXPECT_TRUE(answer->label == "negative" || answer->label == "positive") << answer->label;
  ASSERT_EQ(answer->ranking.size(), 2u);
  EXPECT_NEAR(answer->ranking[0].second + answer->ranking[1].second, 1.0, 1e-5);
  ASSERT_EQ(answer->attention.groups.size(), 1u);
  EXPECT_EQ(answer->attention.groups[0].row_labels.front(), "[CLS]");
  EXPECT_EQ(answer->attention.groups[0].row_labels.back(), "[SEP]");
}

// The trainer checkpoints the whole BERT: a resumed run repeats the uninterrupted one exactly.
TEST(PretrainedSentimentTask, ResumeContinuesExactly) {
  TrainingConfig whole = sentimentFineTuneConfig("resume_whole");
  whole.max_steps = 12;
  ASSERT_TRUE(testing::runCollectingEvents(whole).failures.empty());
  TrainingConfig interrupted = sentimentFineTuneConfig("resume_parts");
  interrupted.max_steps = 12;
  ASSERT_NO_FATAL_FAILURE(testing::runInterruptedThenResumed(interrupted, 7));
  const std::vector<std::string> expected = sentimentTrainRows(whole.out_dir);
  ASSERT_EQ(expected.size(), 12u);
  EXPECT_EQ(sentimentTrainRows(interrupted.out_dir), expected);
}

TEST(PretrainedSentimentTask, ConfigJsonKeepsTheModelFolder) {
  TrainingConfig c = *makePreset(kSentimentTaskId, "finetune");
  c.pretrained = tinyBert();
  const nlohmann::json j = c;
  EXPECT_EQ(j.at("pretrained"), tinyBert());
  EXPECT_EQ(j.get<TrainingConfig>().pretrained, tinyBert());
  // Run folders written before fine-tuning existed train our own model.
  nlohmann::json older = j;
  older.erase("pretrained");
  EXPECT_EQ(older.get<TrainingConfig>().pretrained, "");
}

TEST(PretrainedSentimentTask, AFolderWithoutConfigJsonIsRefusedByName) {
  TrainingConfig c = *makePreset(kSentimentTaskId, "finetune");
  c.pretrained = testing::freshTempPath("ascope_pretrained_sentiment_empty");
  fs::create_directories(c.pretrained);
  const Status s = validateConfig(c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find(c.pretrained + "/config.json"), std::string::npos) << s.error();
  EXPECT_NE(s.error().find("not found"), std::string::npos) << s.error();

  c.pretrained = tinyBert();
  EXPECT_TRUE(validateConfig(c).ok()) << validateConfig(c).error();
  c.task = kTranslationTaskId;
  ASSERT_FALSE(validateConfig(c).ok());
  EXPECT_NE(validateConfig(c).error().find("cannot fine-tune"), std::string::npos)
      << validateConfig(c).error();
}

// A BERT chosen in the GUI trained with the laptop preset (lr 3e-3, batches of 64) and
// ended at chance. A pretrained model goes with the task's fine-tune preset or is refused.
TEST(PretrainedSentimentTask, AFromScratchPresetIsRefusedForAPretrainedModel) {
  TrainingConfig c = *makePreset(kSentimentTaskId, "laptop");
  c.pretrained = tinyBert();
  const Status s = validateConfig(c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("fine-tuned with the finetune preset"), std::string::npos) << s.error();
  EXPECT_NE(s.error().find("\"laptop\""), std::string::npos) << s.error();
  c.resume = true;  // a run started so keeps its settings
  EXPECT_TRUE(validateConfig(c).ok()) << validateConfig(c).error();

  const TaskDescriptor* task = TaskRegistry::instance().find(kSentimentTaskId);
  EXPECT_EQ(task->defaultPreset(false, /*pretrained=*/true), "finetune");
  EXPECT_EQ(task->defaultPreset(false, /*pretrained=*/false), "laptop");
  // The form shows the model's own sizes: tiny_bert's config.json.
  const Expected<ModelShape> shape = task->pretrained_shape(tinyBert());
  ASSERT_TRUE(shape.ok()) << shape.error();
  EXPECT_GT(shape->layers, 0);
  EXPECT_GT(shape->heads, 0);
  EXPECT_EQ(shape->d_model % shape->heads, 0);
  EXPECT_FALSE(task->pretrained_shape("/no/such/model").ok());
}

}  // namespace
}  // namespace ascope
