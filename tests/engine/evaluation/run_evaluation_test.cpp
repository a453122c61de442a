// evaluateRun: a finished run scored on a data set named at the call, its figures equal to the
// run's own final test where they should be, its confusion matrix and worst errors consistent.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>

#include "engine/evaluation/run_evaluation.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/review_data_settings.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/translation/translation_data_settings.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "engine/tasks/translation/translation_scores.h"
#include "engine/train/trainer.h"
#include "tests/engine/removed_at_exit.h"
#include "tests/support/payload_access.h"
#include "trainer_drain.h"

namespace ascope {
namespace {

namespace fs = std::filesystem;

struct TrainedRun {
  std::string dir;
  TestEvaluation test;
};

TrainedRun trainEvaluatedRun(TrainingConfig c, const std::string& name) {
  c.out_dir = testing::freshTempPath("ascope_evaluate_" + name);
  c.probe_every_seconds = 1e9;
  TrainedRun run{c.out_dir, {}};
  Trainer trainer(c);
  const Status started = trainer.start();
  EXPECT_TRUE(started.ok()) << started.error();
  drainUntilFinished(trainer, [&run](EventBatch b) {
    if (b.test) run.test = *b.test;
  });
  EXPECT_EQ(trainer.state(), TrainerState::kFinished);
  return run;
}

/// A finished tiny sentiment run on reviews.csv (its test split carved from the file) and one of
/// translation on the built-in phrases, trained once for every test here.
class RunEvaluation : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    data_ = testing::freshTempPath("ascope_evaluate_data");
    fs::create_directories(data_);
    std::ofstream csv(data_ + "/reviews.csv");
    csv << "text,label\n";
    for (int i = 0; i < 300; ++i) {
      // Mostly clear, a few contradicting words: the model gets some wrong.
      const bool positive = i % 2 == 0;
      csv << (positive ? "good fine" : "bad awful") << (i % 7 == 0 ? " awful" : " nice")
          << " review " << i << "," << (positive ? 1 : 0) << "\n";
    }
    csv.close();
    TrainingConfig sentiment = *makePreset(kSentimentTaskId, "tiny");
    sentiment.data = data_ + "/reviews.csv";
    sentiment.task_settings.as<ReviewDataSettings>().min_freq = 1;
    sentiment_ = new TrainedRun(trainEvaluatedRun(sentiment, "sentiment"));
    TrainingConfig translation = *makePreset(kTranslationTaskId, "tiny");
    // The run's own test decodes every pair too.
    translation.task_settings.as<TranslationDataSettings>().decode_samples = 1000;
    translation_ = new TrainedRun(trainEvaluatedRun(translation, "translation"));
  }
  static void TearDownTestSuite() {
    delete sentiment_;
    delete translation_;
  }

  static std::string data_;
  static TrainedRun* sentiment_;
  static TrainedRun* translation_;
};

std::string RunEvaluation::data_;
TrainedRun* RunEvaluation::sentiment_ = nullptr;
TrainedRun* RunEvaluation::translation_ = nullptr;

TEST_F(RunEvaluation, ClassificationReproducesTheRunsTestFigureWithAConfusionMatrix) {
  EvaluationRequest request;
  request.run_dir = sentiment_->dir;
  request.data = data_ + "/reviews.csv";
  request.errors = 3;
  Expected<EvaluationReport> report = evaluateRun(request);
  ASSERT_TRUE(report.ok()) << report.error();
  const EvaluationReport& r = *report;
  EXPECT_EQ(r.split, "test");
  EXPECT_EQ(r.samples, sentiment_->test.samples) << "the run's own carved test split";
  // The same weights on the same split: the same figure the run reported at its end.
  // evaluate takes best.pt; the run's end tested its last weights when best.pt did not beat them.
  EXPECT_LE(r.step, sentiment_->test.step);
  if (sentiment_->test.weights_step == r.step) {
    EXPECT_NEAR(r.accuracy, sentiment_->test.accuracy, 1e-9);
    EXPECT_NEAR(r.loss, sentiment_->test.loss, 1e-5);
  }
  ASSERT_EQ(r.classes, (std::vector<std::string>{"negative", "positive"}));
  ASSERT_EQ(r.confusion.size(), 2u);
  std::int64_t total = 0, right = 0;
  for (std::size_t t = 0; t < 2; ++t) {
    total += std::accumulate(r.confusion[t].begin(), r.confusion[t].end(), std::int64_t{0});
    right += r.confusion[t][t];
    EXPECT_EQ(r.per_class[t].support,
              std::accumulate(r.confusion[t].begin(), r.confusion[t].end(), std::int64_t{0}));
  }
  EXPECT_EQ(total, r.samples);
  EXPECT_DOUBLE_EQ(r.accuracy, static_cast<double>(right) / static_cast<double>(total));
  ASSERT_EQ(r.scored.size(), static_cast<std::size_t>(r.samples));
  ASSERT_LE(r.worst.size(), 3u);
  for (std::size_t i = 0; i < r.worst.size(); ++i) {
    const ExplainedError& e = r.worst[i];
    EXPECT_FALSE(e.sample.prediction.correct);
    if (i > 0) {
      EXPECT_GE(r.worst[i - 1].sample.loss, e.sample.loss) << "highest loss first";
    }
    ASSERT_FALSE(e.attention.groups.empty());
    EXPECT_EQ(e.attention.groups[0].row_labels.size(), e.attention.groups[0].col_labels.size());
    EXPECT_EQ(e.attention.sample->input, e.sample.prediction.input);
  }
  // Every wrong answer below the worst ones has a loss no higher than theirs.
  if (!r.worst.empty()) {
    for (const ScoredSample& s : r.scored) {
      if (!s.prediction.correct) {
        EXPECT_LE(s.loss, r.worst.front().sample.loss);
      }
    }
  }
}

TEST_F(RunEvaluation, TheValidationAndTrainingSplitsAndAWholeFileScoreToo) {
  EvaluationRequest request;
  request.run_dir = sentiment_->dir;
  request.data = data_ + "/reviews.csv";
  request.errors = 0;
  request.split = DataSplit::kValidation;
  Expected<EvaluationReport> validation = evaluateRun(request);
  ASSERT_TRUE(validation.ok()) << validation.error();
  EXPECT_EQ(validation->samples, 30);
  EXPECT_NE(validation->split_origin.find("carved"), std::string::npos);
  request.split = DataSplit::kTrain;
  Expected<EvaluationReport> training = evaluateRun(request);
  ASSERT_TRUE(training.ok()) << training.error();
  EXPECT_EQ(training->samples, 240);
  request.whole_data = true;
  Expected<EvaluationReport> whole = evaluateRun(request);
  ASSERT_TRUE(whole.ok()) << whole.error();
  EXPECT_EQ(whole->samples, 300);
  EXPECT_EQ(whole->split, "all");
}

TEST_F(RunEvaluation, TranslationBleuIsTheRunsOwnTestBleuOnRawReferences) {
  EvaluationRequest request;
  request.run_dir = translation_->dir;
  request.data = "builtin";
  request.errors = 2;
  Expected<EvaluationReport> report = evaluateRun(request);
  ASSERT_TRUE(report.ok()) << report.error();
  const EvaluationReport& r = *report;
  ASSERT_TRUE(r.figures.has("bleu"));
  ASSERT_TRUE(r.figures.has("brevity_penalty"));  // a whole split's details too
  EXPECT_EQ(r.samples, translation_->test.samples);
  std::vector<std::string> hypotheses, references;
  for (const ScoredSample& s : r.scored) {
    hypotheses.push_back(s.prediction.answer);
    references.push_back(s.prediction.expected);
  }
  EXPECT_DOUBLE_EQ(*r.figures.get("bleu"), scoreTranslations(hypotheses, references).bleu);
  // evaluate takes best.pt; the run's end tested its last weights when best.pt did not beat them.
  EXPECT_LE(r.step, translation_->test.step);
  if (translation_->test.weights_step == r.step) {
    ASSERT_TRUE(translation_->test.figures.has("bleu"));
    EXPECT_NEAR(*r.figures.get("bleu"), *translation_->test.figures.get("bleu"), 1e-9);
  }
  EXPECT_TRUE(r.confusion.empty());
  for (const ExplainedError& e : r.worst) {
    EXPECT_EQ(e.attention.groups.size(), 3u);  // encoder self, decoder self, cross
    EXPECT_FALSE(testing::decodingOf(e.attention).empty());
  }
}

TEST_F(RunEvaluation, CancelAndBadInputAreErrorsForAPerson) {
  std::atomic<bool> cancel{true};
  ScoringProgress progress;
  progress.cancel = &cancel;
  EvaluationRequest request;
  request.run_dir = sentiment_->dir;
  request.data = data_ + "/reviews.csv";
  Expected<EvaluationReport> cancelled = evaluateRun(request, progress);
  ASSERT_FALSE(cancelled.ok());
  EXPECT_EQ(cancelled.error(), "cancelled");

  request.data = data_ + "/missing.csv";
  Expected<EvaluationReport> missing = evaluateRun(request);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), data_ + "/missing.csv: does not exist");

  request.data = data_ + "/reviews.csv";
  request.run_dir = data_;  // not a run folder
  EXPECT_FALSE(evaluateRun(request).ok());
}

}  // namespace
}  // namespace ascope
