#pragma once
// What the classification tasks share: the validation pass (summed cross-entropy and correct
// answers over the held-out rows, a batch at a time, with the model in eval mode and no autograd),
// a training batch's outcome, and an answer's classes ranked by probability.
#include <torch/nn/module.h>
#include <torch/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/tasks/task.h"

namespace ascope {

/// A classifier's answer to each row: the cross-entropy of its label, the class it chose and that
/// class's probability, and its logits (row after row, `classes` each: what a temperature is
/// fitted to). `complete` is false when the pass was cancelled part-way.
struct ClassifierAnswers {
  std::vector<double> loss;
  std::vector<int> predicted;
  std::vector<double> probability;
  std::vector<float> logits;
  int64_t classes = 0;
  bool complete = true;
};

/// Over the first `max_samples` rows of `labels` (all of them when 0 or more than there are),
/// `batch` rows at a time; `logits_of(start, count)` answers rows [start, start + count) on the
/// model's device. `model` is in eval mode during the pass and back in its mode after it.
/// `progress` hears after each batch and may cancel.
ClassifierAnswers answerClassifier(
    torch::nn::Module& model, const torch::Tensor& labels, int max_samples, int64_t batch,
    const std::function<torch::Tensor(int64_t start, int64_t count)>& logits_of,
    const ScoringProgress& progress = {});

/// answerClassifier's mean loss and accuracy.
EvaluationOutcome evaluateClassifier(
    torch::nn::Module& model, const torch::Tensor& labels, int max_samples, int64_t batch,
    const std::function<torch::Tensor(int64_t start, int64_t count)>& logits_of);

/// Every row of `labels` scored (scoreSplit of a classification task): `fill(i, prediction)` sets
/// the input of row i (its text or image); the labels are named by `names`. An error when
/// `progress` cancelled.
Expected<std::vector<ScoredSample>> scoreClassifierRows(
    torch::nn::Module& model, const torch::Tensor& labels, int64_t batch,
    const std::function<torch::Tensor(int64_t start, int64_t count)>& logits_of,
    const std::vector<std::string>& names,
    const std::function<void(int64_t row, SamplePrediction& prediction)>& fill,
    const ScoringProgress& progress);

/// A training batch's cross-entropy of `logits` (B, classes) against `labels` (B) with
/// `label_smoothing`, its correct answers, and B as both samples and counted.
BatchOutcome classifierBatchOutcome(const torch::Tensor& logits, const torch::Tensor& labels,
                                    double label_smoothing);

/// Fills out's ranking from `probabilities` (classes, on the CPU), most probable first (ties keep
/// the class order), each class named by `names` (its index where `names` has no entry), and its
/// label and probability from the first.
void rankClasses(const torch::Tensor& probabilities, const std::vector<std::string>& names,
                 InferenceOutcome* out);

/// The answer and its probability of `result` (none when it failed) and whether the answer is the
/// prediction's expected one.
void recordPrediction(const Expected<InferenceOutcome>& result, SamplePrediction* prediction);
/// recordPrediction of the answer that one row of class `probabilities` (classes, on the CPU)
/// gives, ranked as rankClasses ranks it: a batched probe's sample.
void recordClassProbabilities(const torch::Tensor& probabilities,
                              const std::vector<std::string>& names, SamplePrediction* prediction);

/// The attention of a probe from its answer (empty when the answer failed), marked as `task`'s
/// validation sample `index`.
AttentionSnapshot probedAttention(Expected<InferenceOutcome> probed, const std::string& task,
                                  int index);

}  // namespace ascope
