// The sentiment task's held-out passes (validation, the final test, evaluate, the Errors dock) run
// a batch of reviews as groups of similar length: each review must still get the answer it gets
// alone, in its own row.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/core/json_file.h"
#include "engine/models/text_classifier_config.h"
#include "engine/tasks/registry/task_factory.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/review_data_settings.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/sentiment/sentiment_task.h"
#include "engine/text/words/imdb_word_tokenizer.h"
#include "tests/data/fixture_folder.h"

namespace ascope {
namespace {

const std::vector<std::string> kWords = {"a",      "film", "great", "awful", "plot",  "acting",
                                         "moving", "dull", "not",   "best",  "worst", "story"};

/// Review `i`: 1 to 45 words (lengths out of order, as a split's are), picked by a fixed rule.
TextSample review(int i) {
  TextSample s;
  const int length = (i * 17) % 45 + 1;
  for (int w = 0; w < length; ++w) {
    if (w > 0) s.text += ' ';
    s.text += kWords[static_cast<std::size_t>((i * 7 + w * w * 3 + w) % 12)];
  }
  s.label = i % 2;
  return s;
}

TEST(SentimentTask, HeldOutReviewsScoredInLengthGroupsGetTheAnswersTheyGetAlone) {
  TrainingConfig c = *makePreset(kSentimentTaskId, "tiny");
  c.task_settings.as<TextClassifierConfig>().max_len = 48;
  TextDataset data;
  for (int i = 0; i < 8; ++i) data.train.push_back(review(i));
  const int rows = 70;  // more than one group of similar length, the last one partly filled
  for (int i = 0; i < rows; ++i) data.validation.push_back(review(100 + i));
  const std::vector<TextSample> reviews = data.validation;
  const std::vector<std::string> names = data.class_names;
  SentimentTask task(c, std::move(data), ImdbWordTokenizer::fit(reviews, 1), torch::kCPU);

  const Expected<std::vector<ScoredSample>> scored = task.scoreSplit(DataSplit::kValidation, {});
  ASSERT_TRUE(scored.ok()) << scored.error();
  ASSERT_EQ(scored->size(), static_cast<std::size_t>(rows));
  double loss_sum = 0;
  std::vector<double> distinct_losses;
  for (int i = 0; i < rows; ++i) {
    const ScoredSample& s = (*scored)[static_cast<std::size_t>(i)];
    const Expected<InferenceOutcome> alone =
        task.inferText(reviews[static_cast<std::size_t>(i)].text);
    ASSERT_TRUE(alone.ok()) << alone.error();
    double true_probability = -1;
    for (const auto& [name, probability] : alone->ranking) {
      if (name == names[static_cast<std::size_t>(reviews[static_cast<std::size_t>(i)].label)]) {
        true_probability = probability;
      }
    }
    ASSERT_GT(true_probability, 0) << "row " << i;
    EXPECT_NEAR(s.loss, -std::log(true_probability), 1e-4) << "row " << i;
    EXPECT_EQ(s.prediction.answer, alone->label) << "row " << i;
    loss_sum += s.loss;
    distinct_losses.push_back(s.loss);
  }
  // The untrained model answers the reviews differently, so rows put back in the wrong order
  // could not match their own answers above.
  std::sort(distinct_losses.begin(), distinct_losses.end());
  EXPECT_GT(distinct_losses.back() - distinct_losses.front(), 1e-3);

  const EvaluationOutcome whole =
      task.evaluate(DataSplit::kValidation, 0, FigureSamples::kAsSettingsSay);
  EXPECT_NEAR(whole.loss, loss_sum / rows, 1e-5);
}

// With review_data.pair_min_freq the training reviews' frequent word pairs get rows of their own;
// the tokenizer's file carries them, so a reopened run finds each pair's row as training did.
TEST(SentimentTask, ExactWordPairsTravelWithTheTokenizerToTheReopenedRun) {
  TrainingConfig c = *makePreset(kSentimentTaskId, "tiny");
  c.task_settings.as<ReviewDataSettings>().pair_min_freq = 2;
  ASSERT_TRUE(validateConfig(c).ok());
  std::vector<std::string> warnings;
  Expected<std::unique_ptr<Task>> trained = makeTrainingTask(c, torch::kCPU, &warnings);
  ASSERT_TRUE(trained.ok()) << trained.error();
  EXPECT_NE((*trained)->describe().find("word pairs (seen 2+ times)"), std::string::npos)
      << (*trained)->describe();

  testing::FixtureFolder folder;
  ASSERT_TRUE((*trained)->saveArtifacts(folder.path()).ok());
  Expected<std::unique_ptr<Task>> reopened = makeInferenceTask(c, folder.path(), torch::kCPU);
  ASSERT_TRUE(reopened.ok()) << reopened.error();
  // The pair table starts at zero; rows of their own make the pairs count in both.
  torch::NoGradGuard no_grad;
  const auto trained_weights = (*trained)->model().named_parameters();
  trained_weights["bigrams.weight"].normal_();
  auto reopened_weights = (*reopened)->model().named_parameters();
  ASSERT_EQ(reopened_weights.size(), trained_weights.size());
  for (const auto& w : trained_weights) reopened_weights[w.key()].copy_(w.value());

  const std::string review = "a great film with a moving story, not a dull plot";
  const Expected<InferenceOutcome> before = (*trained)->inferText(review);
  const Expected<InferenceOutcome> after = (*reopened)->inferText(review);
  ASSERT_TRUE(before.ok() && after.ok());
  ASSERT_EQ(before->ranking.size(), after->ranking.size());
  for (std::size_t i = 0; i < before->ranking.size(); ++i) {
    EXPECT_EQ(before->ranking[i].first, after->ranking[i].first);
    EXPECT_NEAR(before->ranking[i].second, after->ranking[i].second, 1e-6);
  }
  trained_weights["bigrams.weight"]
      .narrow(0, 1, trained_weights["bigrams.weight"].size(0) - 1)
      .zero_();
  const Expected<InferenceOutcome> without_pairs = (*trained)->inferText(review);
  ASSERT_TRUE(without_pairs.ok());
  EXPECT_GT(std::abs(without_pairs->probability - before->probability), 1e-4)
      << "the review's pairs have rows";

  // A tokenizer file that lost its pairs cannot stand for a run that has them.
  const std::string file = folder.path("tokenizer.json");
  Expected<nlohmann::json> json = readJsonFile(file);
  ASSERT_TRUE(json.ok());
  json->erase("pairs");
  ASSERT_TRUE(writeJsonFile(file, *json).ok());
  Expected<std::unique_ptr<Task>> broken = makeInferenceTask(c, folder.path(), torch::kCPU);
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.error().find("tokenizer.json: no \"pairs\""), std::string::npos)
      << broken.error();

  c.task_settings.as<TextClassifierConfig>().bigram_buckets = 64;
  EXPECT_NE(validateConfig(c).error().find("pair_min_freq"), std::string::npos);
}

}  // namespace
}  // namespace ascope
