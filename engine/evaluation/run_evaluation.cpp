#include "engine/evaluation/run_evaluation.h"

#include <torch/utils.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <filesystem>
#include <optional>

#include "engine/core/printable_text.h"
#include "engine/datasets/held_out_splits.h"
#include "engine/inference/run_model.h"
#include "engine/inference/run_temperature.h"
#include "engine/runfolder/run_folder.h"
#include "engine/scoring/classification_scores.h"
#include "engine/scoring/temperature_scaling.h"
#include "engine/tasks/registry/run_config_reader.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/vocabulary/payloads/sample_input.h"

namespace ascope {
namespace {

/// What is scored, decided once from the request and the run.
struct Scoring {
  bool whole = false;        ///< every sample of the data
  bool own_data = false;     ///< the data is the run's own
  bool pool_is_run = false;  ///< the training pool read beside it is the run's own data
  DataSplit split = DataSplit::kTest;
};

Scoring scoringOf(const TrainingConfig& config, const EvaluationRequest& request) {
  Scoring s;
  s.own_data = isRunsOwnData(config, request.data);
  s.whole = request.whole_data || (!request.split && !s.own_data);
  s.split = s.whole ? DataSplit::kTest : request.split.value_or(DataSplit::kTest);
  std::error_code ec;
  s.pool_is_run = s.whole && !s.own_data &&
                  (config.data == "builtin" || std::filesystem::exists(config.data, ec));
  return s;
}

/// The run's config with `request.data` as its data: the run's own named validation and test
/// files only when that is still the data they were named beside. Scoring a whole file that is
/// not the run's data, the training pool is the run's own data where it is on this machine, so
/// what the task says of the file's samples occurring in training is said of the run's training.
TrainingConfig dataConfig(const TrainingConfig& config, const EvaluationRequest& request,
                          const Scoring& scoring) {
  TrainingConfig named = scoring.pool_is_run ? config : withNamedData(config, request.data);
  if (scoring.whole) named.splits.test_data = request.data;
  return named;
}

/// `warnings` without repeats (a file read twice, as the pool and as the scored split, warned
/// twice) and, when the pool was not the run's training data, without what the task said of the
/// scored samples occurring in that pool: it compared the file with its own carved part.
std::vector<std::string> honestWarnings(const std::vector<std::string>& warnings,
                                        const Scoring& scoring, const TrainingConfig& config) {
  std::vector<std::string> kept;
  const bool pool_is_file = scoring.whole && !scoring.own_data && !scoring.pool_is_run;
  for (const std::string& w : warnings) {
    if (std::find(kept.begin(), kept.end(), w) != kept.end()) continue;
    const bool overlap = w.size() > kSharedWithTraining.size() &&
                         w.compare(w.size() - kSharedWithTraining.size(),
                                   kSharedWithTraining.size(), kSharedWithTraining) == 0;
    if (pool_is_file && overlap) continue;
    kept.push_back(w);
  }
  if (pool_is_file) {
    kept.push_back("the run's training data (" + printableText(config.data) +
                   ") is not on this machine: whether the samples scored occur in it is not "
                   "checked");
  }
  return kept;
}

/// The task's figures of the split; for a classifier also the confusion matrix and per-class
/// scores.
void summarize(EvaluationReport& report, const Task& task) {
  const EvaluationOutcome summary = task.summarizeScores(report.scored);
  report.loss = summary.loss;
  report.accuracy = summary.accuracy;
  report.figures = summary.figures;
  report.classes = task.classNames();
  if (report.classes.empty()) return;
  ClassificationScores c = scoreClasses(report.scored, report.classes);
  report.confusion = std::move(c.confusion);
  report.per_class = std::move(c.per_class);
  report.macro_f1 = c.macro_f1;
}

/// A classifier's split: its calibration error before and after the run's temperature, and its
/// shown probabilities at that temperature. Nothing for a split without logits (a translation).
void calibrate(EvaluationReport& report, const RunTemperature& t) {
  const bool has_logits = std::any_of(report.scored.begin(), report.scored.end(),
                                      [](const ScoredSample& s) { return !s.logits.empty(); });
  if (!has_logits) return;
  if (!t.warning.empty()) report.warnings.push_back(t.warning);
  Expected<CalibrationError> before = calibrationError(confidenceOutcomes(report.scored, 1.0));
  Expected<CalibrationError> after =
      calibrationError(confidenceOutcomes(report.scored, t.temperature));
  if (!before.ok() || !after.ok()) {
    report.warnings.push_back("calibration not measured: " +
                              (before.ok() ? after.error() : before.error()));
    return;
  }
  applyTemperature(report.scored, t.temperature);
  report.calibration =
      AppliedCalibration{t.temperature, t.source, std::move(*before), std::move(*after)};
}

/// The wrong answer asked again: the same input through the same model, with its attention.
Expected<AttentionSnapshot> attentionOf(Task& task, const ScoredSample& s, std::int64_t step) {
  const SamplePrediction& p = s.prediction;
  const SampleInput input = inputOf(p.payloads, p.input);
  Expected<InferenceOutcome> asked =
      input.image ? task.inferImage(*input.image) : task.inferText(input.text);
  if (!asked.ok()) return Error{asked.error()};
  AttentionSnapshot snapshot = std::move(asked->attention);
  snapshot.step = step;
  snapshot.sample_index = static_cast<int>(s.index);
  snapshot.sample = p;
  return snapshot;
}

/// The task's second scoring `pass` of the run's weights on the same split, its figures added to
/// `figures` under the pass's prefix.
Status scoreExtraPass(const ExtraEvaluationPass& pass, const EvaluationRequest& request,
                      const TrainingConfig& config, const Scoring& scoring,
                      const std::atomic<bool>* cancel, Figures& figures) {
  Expected<RunModel> model =
      loadRunModel(request.run_dir, CheckpointChoice::kBest, request.device,
                   dataConfig(config, request, scoring), nullptr, pass.beam_width);
  if (!model.ok()) return Error{model.error()};
  Expected<std::vector<ScoredSample>> scored =
      model->task->scoreSplit(scoring.split, ScoringProgress{{}, cancel});
  if (!scored.ok()) return Error{scored.error()};
  const Figures again = model->task->summarizeScores(*scored).figures;
  for (const std::string& key : pass.figures) {
    if (const std::optional<double> value = again.get(key)) figures.set(pass.prefix + key, *value);
  }
  return {};
}

}  // namespace

Expected<EvaluationReport> evaluateRun(const EvaluationRequest& request,
                                       const ScoringProgress& progress) {
  // Exceptions from LibTorch stop here (the caller may be a worker thread that Qt owns).
  try {
    const auto t0 = std::chrono::steady_clock::now();
    if (request.data.empty()) return Error{"no data set given to evaluate on"};
    if (request.errors < 0) return Error{"errors must be 0 or more"};
    std::error_code ec;
    if (request.data != "builtin" && !std::filesystem::exists(request.data, ec)) {
      return Error{request.data + ": does not exist"};
    }
    Expected<TrainingConfig> config = readRunConfig(request.run_dir);
    if (!config.ok()) return Error{config.error()};
    EvaluationReport report;
    const Scoring scoring = scoringOf(*config, request);
    std::vector<std::string> warnings;
    Expected<RunModel> model =
        loadRunModel(request.run_dir, CheckpointChoice::kBest, request.device,
                     dataConfig(*config, request, scoring), &warnings, request.beam_width);
    if (!model.ok()) return Error{model.error()};
    report.warnings = honestWarnings(warnings, scoring, *config);
    if (!model->note.empty()) report.warnings.push_back(model->note);
    Task& task = *model->task;
    const DataSplit split = scoring.split;
    const SplitOrigins origins = task.splitOrigins();
    report.task = model->config.task;
    report.run_dir = request.run_dir;
    report.data = request.data;
    report.split = scoring.whole ? "all" : splitName(split);
    report.split_origin = split == DataSplit::kTrain        ? "the training data"
                          : split == DataSplit::kValidation ? origins.validation
                                                            : origins.test;
    if (scoring.whole) {
      report.split_origin = "every sample of " + request.data +
                            (scoring.own_data ? " (the run's own data, its training part included)"
                                              : " (not the run's own data)");
    }
    report.checkpoint = model->checkpoint;
    report.step = model->step;
    report.device = request.device;
    if (task.splitSize(split) <= 0) {
      // `all` is the advice for an empty test split, never for itself.
      if (scoring.whole) return Error{request.data + ": no samples to score"};
      return Error{request.data + ": the " + splitName(split) + " split is empty" +
                   (split == DataSplit::kTest
                        ? " (the data has no test split and the run carved none; try --split "
                          "validation, or all for every sample of the file)"
                        : "")};
    }
    torch::NoGradGuard no_grad;
    Expected<std::vector<ScoredSample>> scored = task.scoreSplit(split, progress);
    if (!scored.ok()) return Error{scored.error()};
    report.scored = std::move(*scored);
    report.samples = static_cast<std::int64_t>(report.scored.size());
    summarize(report, task);
    calibrate(report, runTemperature(request.run_dir, model->step));
    // What the task scores again beside a beam (its greedy figures): the same weights and split.
    if (const TaskDescriptor* descriptor = TaskRegistry::instance().find(report.task)) {
      for (const ExtraEvaluationPass& pass : descriptor->extra_evaluation_passes) {
        if (request.beam_width <= pass.beam_width) continue;
        if (Status s =
                scoreExtraPass(pass, request, *config, scoring, progress.cancel, report.figures);
            !s.ok()) {
          return Error{s.error()};
        }
      }
    }
    const std::vector<std::size_t> worst =
        worstErrors(report.scored, static_cast<std::size_t>(request.errors));
    for (std::size_t k = 0; k < worst.size(); ++k) {
      if (progress.cancelled()) return Error{"cancelled"};
      const ScoredSample& s = report.scored[worst[k]];
      Expected<AttentionSnapshot> attention = attentionOf(task, s, model->step);
      if (!attention.ok()) return Error{attention.error()};
      report.worst.push_back({s, std::move(*attention)});
      progress(report.samples + static_cast<std::int64_t>(k) + 1,
               report.samples + static_cast<std::int64_t>(worst.size()));
    }
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return report;
  } catch (const std::exception& e) {
    const std::string what = e.what();
    return Error{"evaluation failed: " + what.substr(0, what.find('\n'))};
  }
}

}  // namespace ascope
