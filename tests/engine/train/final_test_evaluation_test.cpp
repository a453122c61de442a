// The end of every run that reached its end evaluates the whole test split once (never the
// validation split, whose eval_max_samples the epoch ends look at) with the weights
// config.final_weights chooses, and reports it as an event, a `test` row of metrics.csv (read back
// into OpenedRun::test) and a log line; the model ends with its final weights.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "engine/inference/read_run.h"
#include "engine/runfolder/metrics/metrics_csv_writer.h"
#include "engine/runfolder/run_folder.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/train/trainer.h"
#include "forwarding_task.h"
#include "tests/engine/removed_at_exit.h"
#include "tests/support/test_files.h"
#include "trainer_drain.h"

namespace ascope {
namespace {

using testing::readFile;
using testing::writeFile;

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// The tiny sentiment preset: 400 training reviews in batches of 32 (13 steps an epoch, the last
// one of 16 reviews), 3 epochs, 100 held-out reviews: 50 validate, the other 50 are the test split.
constexpr int64_t kStepsPerEpoch = 13;
constexpr int64_t kSteps = 3 * kStepsPerEpoch;
constexpr int64_t kHeldOut = 50;  // the test split

std::string finalTestDir(const std::string& name) {
  return testing::freshTempPath("ascope_final_test_" + name);
}

/// The lines of metrics.csv whose split is `split`.
std::vector<std::string> rowsOf(const std::string& run_dir, const std::string& split) {
  std::istringstream text(readFile(run_dir + "/metrics.csv"));
  std::vector<std::string> rows;
  for (std::string line; std::getline(text, line);) {
    if (line.find("," + split + ",") != std::string::npos) rows.push_back(line);
  }
  return rows;
}

TrainingConfig tinyFinalTestRun(const std::string& name) {
  TrainingConfig c = *makePreset(kSentimentTaskId, "tiny");
  c.out_dir = finalTestDir(name);
  c.probe_every_seconds = 1e9;  // probes by step count only, so runs are repeatable
  return c;
}

// --- metrics.csv ----------------------------------------------------------------------------

TEST(FinalTestMetricsCsv, TestRowRoundTripsThroughMetricsCsvAndOpenedRun) {
  Expected<RunFolder> folder = RunFolder::create(finalTestDir("csv_round_trip"), kSentimentTaskId);
  ASSERT_TRUE(folder.ok()) << folder.error();
  ASSERT_TRUE(folder->writeConfig(*makePreset(kSentimentTaskId, "tiny")).ok());
  {
    Expected<MetricsCsvWriter> writer = MetricsCsvWriter::open(
        folder->metricsPath(), false, 0, {"bleu", "cer", "wer", "exact_match"});
    ASSERT_TRUE(writer.ok()) << writer.error();
    StepMetrics m;
    m.step = 39, m.epoch = 3, m.loss = 0.5, m.accuracy = 0.75, m.lr = 0.003, m.samples_per_s = 900;
    ASSERT_TRUE(writer->append(m).ok());
    EpochSummary e;
    e.epoch = 3, e.step = 39, e.val_loss = 0.45, e.val_accuracy = 0.8;
    ASSERT_TRUE(writer->append(e, 0.003).ok());
    TestEvaluation t;
    t.epoch = 3, t.step = 39, t.weights_step = 26, t.best_weights = true, t.samples = 100;
    t.loss = 0.3012, t.accuracy = 0.87;
    t.figures.set("bleu", 21.5);
    t.figures.set("cer", 0.25);
    t.figures.set("wer", 0.4);
    t.figures.set("exact_match", 0.125);
    ASSERT_TRUE(writer->append(t, 0.003).ok());
  }
  EXPECT_EQ(readFile(folder->metricsPath()),
            "step,epoch,split,loss,accuracy,lr,samples_per_s,samples,weights_step,bleu,cer,wer,"
            "exact_match\n"
            "39,3,train,0.5,0.75,0.003,900,,,,,,\n"
            "39,3,val,0.45,0.8,0.003,,,,,,,\n"
            "39,3,test,0.3012,0.87,0.003,,100,26,21.5,0.25,0.4,0.125\n");

  Expected<OpenedRun> run = readRun(folder->path());
  ASSERT_TRUE(run.ok()) << run.error();
  ASSERT_EQ(run->steps.size(), 1u);
  ASSERT_EQ(run->epochs.size(), 1u);  // the test row is not one more validation pass
  EXPECT_EQ(run->epochs[0].val_accuracy, 0.8);
  ASSERT_TRUE(run->test.has_value());
  EXPECT_EQ(run->test->epoch, 3);
  EXPECT_EQ(run->test->step, 39);
  EXPECT_EQ(run->test->weights_step, 26);
  EXPECT_TRUE(run->test->best_weights);
  EXPECT_EQ(run->test->samples, 100);
  EXPECT_EQ(run->test->loss, 0.3012);
  EXPECT_EQ(run->test->accuracy, 0.87);
  EXPECT_EQ(run->test->figures.get("bleu").value_or(-1), 21.5);
  EXPECT_EQ(run->test->figures.get("cer").value_or(-1), 0.25);
  EXPECT_EQ(run->test->figures.get("wer").value_or(-1), 0.4);
  EXPECT_EQ(run->test->figures.get("exact_match").value_or(-1), 0.125);
}

TEST(FinalTestMetricsCsv, FilesWrittenBeforeTheFinalTestStillReadAndResume) {
  Expected<RunFolder> folder = RunFolder::create(finalTestDir("csv_old"), kSentimentTaskId);
  ASSERT_TRUE(folder.ok()) << folder.error();
  ASSERT_TRUE(folder->writeConfig(*makePreset(kSentimentTaskId, "tiny")).ok());
  // Eleven columns, no test row: as every run folder made before.
  writeFile(folder->metricsPath(),
            "step,epoch,split,loss,accuracy,lr,samples_per_s,bleu,cer,wer,exact_match\n"
            "1,1,train,0.7,0.5,0.001,100,,,,\n"
            "2,1,train,0.6,0.7,0.001,100,,,,\n"
            "2,1,val,0.55,0.6,0.001,,12.5,0.5,0.7,0.25\n");
  Expected<OpenedRun> old = readRun(folder->path());
  ASSERT_TRUE(old.ok()) << old.error();
  EXPECT_EQ(old->steps.size(), 2u);
  ASSERT_EQ(old->epochs.size(), 1u);
  EXPECT_DOUBLE_EQ(old->epochs[0].train_loss, 0.65);
  EXPECT_EQ(old->epochs[0].figures.get("bleu").value_or(-1), 12.5);
  EXPECT_FALSE(old->test.has_value());
  for (const std::string& warning : old->warnings) {
    EXPECT_EQ(warning.find("malformed"), std::string::npos) << warning;
  }

  // Resumed by this version: the old rows stay, under their header extended by the columns it
  // lacks, and a test row follows.
  {
    Expected<MetricsCsvWriter> writer =
        MetricsCsvWriter::open(folder->metricsPath(), true, 2, {"bleu", "chrf"});
    ASSERT_TRUE(writer.ok()) << writer.error();
    TestEvaluation t;
    t.epoch = 1, t.step = 2, t.weights_step = 2, t.samples = 7, t.loss = 0.5, t.accuracy = 0.625;
    ASSERT_TRUE(writer->append(t, 0.001).ok());
  }
  Expected<MetricsCsv> csv = readMetricsCsv(folder->metricsPath());
  ASSERT_TRUE(csv.ok()) << csv.error();
  EXPECT_TRUE(csv->warnings.empty());
  ASSERT_EQ(csv->rows.size(), 4u);
  EXPECT_EQ(csv->columns.header(),
            "step,epoch,split,loss,accuracy,lr,samples_per_s,bleu,cer,wer,exact_match,samples,"
            "weights_step,chrf");
  EXPECT_EQ(csv->rows[2].figures.get("bleu").value_or(-1), 12.5);
  EXPECT_EQ(csv->rows[2].figures.get("exact_match").value_or(-1), 0.25);
  EXPECT_FALSE(csv->rows[2].samples.has_value());  // eleven fields: no count
  EXPECT_EQ(csv->rows[3].split, "test");
  EXPECT_EQ(csv->rows[3].samples.value_or(-1), 7);
  EXPECT_EQ(csv->rows[3].weights_step.value_or(-1), 2);
  Expected<OpenedRun> resumed = readRun(folder->path());
  ASSERT_TRUE(resumed.ok()) << resumed.error();
  ASSERT_TRUE(resumed->test.has_value());
  EXPECT_EQ(resumed->test->accuracy, 0.625);
  EXPECT_FALSE(resumed->test->best_weights);
  EXPECT_EQ(resumed->epochs.size(), 1u);
}

TEST(FinalTestMetricsCsv, TestRowsWithBadCountsAreMalformed) {
  // The header every run folder had before tasks declared their figures.
  const Expected<MetricsColumns> old = MetricsColumns::parse(
      "step,epoch,split,loss,accuracy,lr,samples_per_s,bleu,cer,wer,exact_match,samples,"
      "weights_step");
  ASSERT_TRUE(old.ok()) << old.error();
  EXPECT_TRUE(parseMetricsRow("5,1,test,0.5,0.5,0.001,,,,,,100,5", *old).has_value());
  EXPECT_TRUE(parseMetricsRow("5,1,test,0.5,0.5,0.001,,,,,", *old).has_value());  // no counts
  EXPECT_FALSE(parseMetricsRow("5,1,test,0.5,0.5,0.001,,,,,,-1,5", *old).has_value());
  EXPECT_FALSE(parseMetricsRow("5,1,test,0.5,0.5,0.001,,,,,,100,5x", *old).has_value());
  EXPECT_FALSE(parseMetricsRow("5,1,tests,0.5,0.5,0.001,,,,,,100,5", *old).has_value());
  EXPECT_FALSE(parseMetricsRow("5,1,test,0.5,0.5,0.001,,,,,,100,5,7", *old).has_value());
}

TEST(FinalTestMetricsCsv, HeadersNameOnlyTheirColumnsAndFigures) {
  EXPECT_TRUE(MetricsColumns::parse("step,epoch,split,loss,accuracy,lr,samples_per_s").ok());
  EXPECT_TRUE(
      MetricsColumns::parse("step,epoch,split,loss,accuracy,lr,samples_per_s,edit_distance").ok());
  EXPECT_FALSE(MetricsColumns::parse("step,epoch,split,loss,accuracy,lr").ok());
  EXPECT_FALSE(
      MetricsColumns::parse("step,epoch,split,loss,accuracy,lr,samples_per_s,Bad Key").ok());
  EXPECT_FALSE(
      MetricsColumns::parse("step,epoch,split,loss,accuracy,lr,samples_per_s,bleu,bleu").ok());
  EXPECT_FALSE(MetricsColumns::parse("step,epoch,split,loss,accuracy,lr,samples_per_s,loss").ok());
  const MetricsColumns fresh = MetricsColumns::forFigures({"edit_distance"});
  EXPECT_EQ(fresh.header(),
            "step,epoch,split,loss,accuracy,lr,samples_per_s,samples,weights_step,edit_distance");
  const std::optional<MetricsRow> row = parseMetricsRow("4,1,val,0.5,0.5,0.001,,,,2.5", fresh);
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->figures.get("edit_distance").value_or(-1), 2.5);
}

// --- config.json ----------------------------------------------------------------------------

TEST(FinalTestConfig, FinalWeightsRoundTripsAndOlderConfigsReadAsBest) {
  TrainingConfig c = *makePreset(kSentimentTaskId, "tiny");
  EXPECT_EQ(c.final_weights, "best");
  c.final_weights = "last";
  nlohmann::json j = c;
  EXPECT_EQ(j.at("final_weights"), "last");
  EXPECT_EQ(j.get<TrainingConfig>().final_weights, "last");
  j.erase("final_weights");  // a config.json written before the final test
  EXPECT_EQ(j.get<TrainingConfig>().final_weights, "best");

  c.final_weights = "newest";
  EXPECT_EQ(validateConfig(c).error(),
            "final_weights must be \"best\" or \"last\", got \"newest\"");
}

// --- the run's end --------------------------------------------------------------------------

TEST(FinalTest, EveryHeldOutSampleIsEvaluatedOnceAtTheEnd) {
  TrainingConfig c = tinyFinalTestRun("whole_split");
  c.eval_max_samples = 30;  // the validation passes see 30 of their 50
  const RunEvents run = runAndCollect(c);
  ASSERT_TRUE(run.failures.empty()) << run.failures[0].message;
  EXPECT_EQ(run.state, TrainerState::kFinished);
  ASSERT_EQ(run.epochs.size(), 3u);
  ASSERT_EQ(run.tests.size(), 1u);
  const TestEvaluation& t = run.tests[0];
  EXPECT_EQ(t.samples, kHeldOut);
  EXPECT_GT(t.samples, c.eval_max_samples);
  EXPECT_EQ(t.step, kSteps);
  EXPECT_EQ(t.epoch, 3);
  EXPECT_GE(t.accuracy, 0.0);
  EXPECT_LE(t.accuracy, 1.0);
  EXPECT_GT(t.loss, 0.0);
  EXPECT_TRUE(t.figures.empty());  // not a translation
  EXPECT_GT(t.seconds, 0.0);

  // best.pt is written on each strict improvement; it is tested when it beats the last epoch.
  const EpochSummary* best = &run.epochs[0];
  for (const EpochSummary& e : run.epochs) {
    if (e.val_accuracy > best->val_accuracy) best = &e;
  }
  const bool best_wins = best->val_accuracy > run.epochs.back().val_accuracy;
  EXPECT_EQ(t.best_weights, best_wins);
  EXPECT_EQ(t.weights_step, best_wins ? best->step : kSteps);

  const std::vector<std::string> rows = rowsOf(c.out_dir, "test");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].rfind("39,3,test,", 0), 0u) << rows[0];
  EXPECT_NE(rows[0].find(",50," + std::to_string(t.weights_step)), std::string::npos) << rows[0];
  EXPECT_EQ(rowsOf(c.out_dir, "val").size(), 3u);
  const std::string line =
      "test (50 samples: the last 50 of the generator's held-out reviews (none of them in "
      "training); weights of step " +
      std::to_string(t.weights_step) + (best_wins ? " (best)" : " (last)");
  EXPECT_TRUE(std::any_of(run.logs.begin(), run.logs.end(), [&](const std::string& l) {
    return l.find(line) != std::string::npos;
  })) << line;

  Expected<OpenedRun> opened = readRun(c.out_dir);
  ASSERT_TRUE(opened.ok()) << opened.error();
  ASSERT_TRUE(opened->test.has_value());
  EXPECT_EQ(opened->test->samples, kHeldOut);
  EXPECT_EQ(opened->test->weights_step, t.weights_step);
  EXPECT_NEAR(opened->test->accuracy, t.accuracy, 1e-6);
}

TEST(FinalTest, StoppedRunsHaveNoneAndACompleteRunResumedHasNoSecond) {
  TrainingConfig c = tinyFinalTestRun("interrupted");
  c.interrupt_at_step = 20;
  RunEvents first = runAndCollect(c);
  EXPECT_EQ(first.state, TrainerState::kStopped);
  EXPECT_TRUE(first.tests.empty());
  EXPECT_TRUE(rowsOf(c.out_dir, "test").empty());

  c.interrupt_at_step = 0;
  c.resume = true;
  RunEvents second = runAndCollect(c);
  EXPECT_EQ(second.state, TrainerState::kFinished);
  ASSERT_EQ(second.tests.size(), 1u);
  EXPECT_EQ(second.tests[0].step, kSteps);
  EXPECT_EQ(second.tests[0].samples, kHeldOut);
  EXPECT_EQ(rowsOf(c.out_dir, "test").size(), 1u);

  // Nothing left to train: the figure of the run's end stays the one in metrics.csv.
  RunEvents third = runAndCollect(c);
  EXPECT_EQ(third.state, TrainerState::kFinished);
  EXPECT_TRUE(third.tests.empty());
  EXPECT_EQ(rowsOf(c.out_dir, "test").size(), 1u);
}

TEST(FinalTest, TheTimeLimitEndsARunWithItsTestToo) {
  TrainingConfig c = tinyFinalTestRun("time_limit");
  c.max_seconds = 1e-6;  // reached after the first step
  const RunEvents run = runAndCollect(c);
  EXPECT_EQ(run.state, TrainerState::kFinished);
  ASSERT_EQ(run.tests.size(), 1u);
  EXPECT_EQ(run.tests[0].step, 1);
  EXPECT_EQ(run.tests[0].weights_step, 1);  // best.pt is of this very step
  EXPECT_FALSE(run.tests[0].best_weights);
  EXPECT_EQ(run.tests[0].samples, kHeldOut);
  EXPECT_EQ(rowsOf(c.out_dir, "test").size(), 1u);
}

// --- which weights --------------------------------------------------------------------------

/// What the scripted task saw: the sum of every weight at each validation pass, at the final
/// test and when the run's task was destroyed (the weights the model ended with).
struct WeightSums {
  std::vector<double> at_validation;
  std::vector<double> at_test;
  std::vector<int> test_max_samples;
  double at_end = 0;
};

/// The validation accuracies the next run's passes report, in order (the last one repeats).
std::vector<double>& scriptedAccuracies() {
  static std::vector<double> accuracies;
  return accuracies;
}

WeightSums& weightSums() {
  static WeightSums sums;
  return sums;
}

double sumOfWeights(torch::nn::Module& model) {
  torch::NoGradGuard no_grad;
  double sum = 0;
  for (const torch::Tensor& p : model.parameters())
    sum += p.to(torch::kDouble).sum().item<double>();
  return sum;
}

/// Sentiment, except that the validation passes report the scripted accuracies (best.pt follows
/// them) and every evaluation notes the model's weights.
class ScriptedValidationTask final : public testing::ForwardingTask {
 public:
  using ForwardingTask::ForwardingTask;
  ~ScriptedValidationTask() override { weightSums().at_end = sumOfWeights(model()); }

  EvaluationOutcome evaluate(DataSplit split, int max_samples, FigureSamples figures) override {
    EvaluationOutcome e = ForwardingTask::evaluate(split, max_samples, figures);
    if (split == DataSplit::kTest) {
      weightSums().at_test.push_back(sumOfWeights(model()));
      weightSums().test_max_samples.push_back(max_samples);
      return e;
    }
    const std::vector<double>& script = scriptedAccuracies();
    const std::size_t pass = weightSums().at_validation.size();
    weightSums().at_validation.push_back(sumOfWeights(model()));
    e.accuracy = script[std::min(pass, script.size() - 1)];
    return e;
  }
};

constexpr const char* kScriptedTaskId = "scripted_validation";

void registerScriptedTask() {
  if (TaskRegistry::instance().find(kScriptedTaskId) != nullptr) return;
  const TaskDescriptor* sentiment = TaskRegistry::instance().find(kSentimentTaskId);
  ASSERT_NE(sentiment, nullptr);
  TaskDescriptor d = *sentiment;
  d.id = kScriptedTaskId;
  d.make_preset = [make = sentiment->make_preset](const std::string& preset) {
    TrainingConfig c = make(preset);
    c.task = kScriptedTaskId;
    return c;
  };
  d.make_training_task = [make = sentiment->make_training_task](
                             const TaskBuild& b) -> Expected<std::unique_ptr<Task>> {
    Expected<std::unique_ptr<Task>> inner = make(b);
    if (!inner.ok()) return inner;
    return std::unique_ptr<Task>(std::make_unique<ScriptedValidationTask>(std::move(*inner)));
  };
  ASSERT_TRUE(TaskRegistry::instance().add(std::move(d)).ok());
}

struct WeightsCase {
  std::vector<double> accuracies;  ///< of the three epochs' validation passes
  std::string final_weights;
  int64_t weights_step;  ///< expected
  int tested_pass;       ///< the validation pass (0-based) whose weights the test must see
};

TEST(FinalTest, BestWeightsAreTestedWhenTheyBeatTheLastAndTheModelEndsWithItsOwn) {
  registerScriptedTask();
  const WeightsCase cases[] = {
      // Epoch 2 (step 26) is best, the last epoch worse: best.pt is tested.
      {{0.5, 0.9, 0.7}, "best", 2 * kStepsPerEpoch, 1},
      // The same run, asked for the last weights.
      {{0.5, 0.9, 0.7}, "last", kSteps, 2},
      // The last epoch is best: best.pt holds the last weights.
      {{0.5, 0.7, 0.9}, "best", kSteps, 2},
      // A tie is no improvement: best.pt is epoch 1's, but the last weights do as well.
      {{0.9, 0.9, 0.9}, "best", kSteps, 2},
  };
  int n = 0;
  for (const WeightsCase& wc : cases) {
    SCOPED_TRACE("case " + std::to_string(n));
    scriptedAccuracies() = wc.accuracies;
    weightSums() = WeightSums{};
    TrainingConfig c = *makePreset(kScriptedTaskId, "tiny");
    c.out_dir = finalTestDir("weights_" + std::to_string(n++));
    c.probe_every_seconds = 1e9;
    c.eval_max_samples = 30;
    c.final_weights = wc.final_weights;
    const RunEvents run = runAndCollect(c);
    ASSERT_TRUE(run.failures.empty()) << run.failures[0].message;
    ASSERT_EQ(run.tests.size(), 1u);
    const TestEvaluation& t = run.tests[0];
    EXPECT_EQ(t.weights_step, wc.weights_step);
    EXPECT_EQ(t.best_weights, wc.weights_step != kSteps);
    EXPECT_EQ(t.step, kSteps);

    const WeightSums& sums = weightSums();
    ASSERT_EQ(sums.at_validation.size(), 3u);
    ASSERT_EQ(sums.at_test.size(), 1u);
    EXPECT_EQ(sums.test_max_samples[0], 0);  // "all"
    // Training moved the weights between the passes, so equal sums mean the same weights.
    EXPECT_NE(sums.at_validation[1], sums.at_validation[2]);
    EXPECT_EQ(sums.at_test[0], sums.at_validation[wc.tested_pass]);
    EXPECT_EQ(sums.at_end, sums.at_validation[2]) << "the model must end with its final weights";
  }
}

}  // namespace
}  // namespace ascope
