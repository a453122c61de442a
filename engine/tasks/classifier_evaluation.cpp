#include "engine/tasks/classifier_evaluation.h"

#include <torch/nn/functional/activation.h>
#include <torch/nn/functional/loss.h>
#include <torch/utils.h>

#include <algorithm>

#include "engine/device/host_read.h"

namespace ascope {

ClassifierAnswers answerClassifier(
    torch::nn::Module& model, const torch::Tensor& labels, int max_samples, int64_t batch,
    const std::function<torch::Tensor(int64_t start, int64_t count)>& logits_of,
    const ScoringProgress& progress) {
  torch::NoGradGuard no_grad;
  const bool was_training = model.is_training();
  model.eval();
  const int64_t rows = labels.size(0);
  const int64_t n = max_samples > 0 ? std::min<int64_t>(max_samples, rows) : rows;
  ClassifierAnswers out;
  // Each batch's answers stay on the device until the pass ends: the host waits once for all.
  std::vector<torch::Tensor> batches;
  for (int64_t start = 0; start < n; start += batch) {
    if (progress.cancelled()) {
      out.complete = false;
      break;
    }
    const int64_t count = std::min(batch, n - start);
    const torch::Tensor logits = logits_of(start, count).to(torch::kFloat);  // (B, classes)
    const torch::Tensor truth = labels.narrow(0, start, count).to(logits.device());
    const torch::Tensor losses = torch::nn::functional::cross_entropy(
        logits, truth,
        torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kNone));  // (B)
    const auto [probability, predicted] = torch::softmax(logits, -1).max(-1);       // (B), (B)
    // The logits ride along (a temperature is fitted to them) in the same one copy.
    batches.push_back(
        torch::cat({torch::stack({losses.to(torch::kDouble), probability.to(torch::kDouble),
                                  predicted.to(torch::kDouble)}),
                    logits.t().to(torch::kDouble)}));  // (3 + classes, B)
    progress(start + count, n);
  }
  model.train(was_training);
  if (batches.empty()) return out;
  const torch::Tensor answers =
      copyToHost(torch::cat(batches, 1)).contiguous();  // (3 + classes, n)
  const auto a = answers.accessor<double, 2>();
  out.classes = answers.size(0) - 3;
  const auto answered = static_cast<std::size_t>(answers.size(1));
  out.loss.reserve(answered);
  out.predicted.reserve(answered);
  out.probability.reserve(answered);
  out.logits.reserve(answered * static_cast<std::size_t>(out.classes));
  for (int64_t i = 0; i < answers.size(1); ++i) {
    out.loss.push_back(a[0][i]);
    out.probability.push_back(a[1][i]);
    out.predicted.push_back(static_cast<int>(a[2][i]));
    for (int64_t c = 0; c < out.classes; ++c) out.logits.push_back(static_cast<float>(a[3 + c][i]));
  }
  return out;
}

EvaluationOutcome evaluateClassifier(
    torch::nn::Module& model, const torch::Tensor& labels, int max_samples, int64_t batch,
    const std::function<torch::Tensor(int64_t start, int64_t count)>& logits_of) {
  const ClassifierAnswers answers = answerClassifier(model, labels, max_samples, batch, logits_of);
  model.train();
  const auto n = static_cast<int64_t>(answers.loss.size());
  double loss_sum = 0;
  int64_t correct = 0;
  const torch::Tensor truth = labels.to(torch::kCPU).contiguous();
  const int64_t* label = truth.data_ptr<int64_t>();
  for (int64_t i = 0; i < n; ++i) {
    loss_sum += answers.loss[static_cast<std::size_t>(i)];
    correct += answers.predicted[static_cast<std::size_t>(i)] == label[i];
  }
  EvaluationOutcome out;
  out.loss = n > 0 ? loss_sum / n : 0;
  out.accuracy = n > 0 ? static_cast<double>(correct) / n : 0;
  return out;
}

Expected<std::vector<ScoredSample>> scoreClassifierRows(
    torch::nn::Module& model, const torch::Tensor& labels, int64_t batch,
    const std::function<torch::Tensor(int64_t start, int64_t count)>& logits_of,
    const std::vector<std::string>& names,
    const std::function<void(int64_t row, SamplePrediction& prediction)>& fill,
    const ScoringProgress& progress) {
  const ClassifierAnswers answers = answerClassifier(model, labels, 0, batch, logits_of, progress);
  if (!answers.complete) return Error{"cancelled"};
  auto name = [&names](int c) {
    return c >= 0 && c < static_cast<int>(names.size()) ? names[static_cast<std::size_t>(c)]
                                                        : std::to_string(c);
  };
  const torch::Tensor truth = labels.to(torch::kCPU).contiguous();
  const int64_t* label = truth.data_ptr<int64_t>();
  std::vector<ScoredSample> out(answers.loss.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    ScoredSample& s = out[i];
    s.index = static_cast<int64_t>(i);
    s.true_class = static_cast<int>(label[i]);
    s.predicted_class = answers.predicted[i];
    s.loss = answers.loss[i];
    s.prediction.sample_index = static_cast<int>(i);
    s.prediction.expected = name(s.true_class);
    s.prediction.answer = name(s.predicted_class);
    s.prediction.probability = answers.probability[i];
    s.prediction.correct = s.true_class == s.predicted_class;
    const auto classes = static_cast<std::size_t>(answers.classes);
    const auto first = answers.logits.begin() + static_cast<std::ptrdiff_t>(i * classes);
    s.logits.assign(first, first + static_cast<std::ptrdiff_t>(classes));
    fill(static_cast<int64_t>(i), s.prediction);
  }
  return out;
}

BatchOutcome classifierBatchOutcome(const torch::Tensor& logits, const torch::Tensor& labels,
                                    double label_smoothing) {
  BatchOutcome out;
  out.loss = torch::nn::functional::cross_entropy(
      logits, labels,
      torch::nn::functional::CrossEntropyFuncOptions().label_smoothing(label_smoothing));
  out.correct = logits.argmax(-1).eq(labels).sum();
  out.samples = labels.size(0);
  out.counted = torch::full({}, out.samples, labels.options());
  return out;
}

void rankClasses(const torch::Tensor& probabilities, const std::vector<std::string>& names,
                 InferenceOutcome* out) {
  for (int64_t c = 0; c < probabilities.size(0); ++c) {
    const std::string name = c < static_cast<int64_t>(names.size()) ? names[c] : std::to_string(c);
    out->ranking.emplace_back(name, probabilities[c].item<double>());
  }
  // Most probable first: callers show ranking[0] as the answer and ranking[1] as the runner-up.
  std::stable_sort(out->ranking.begin(), out->ranking.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  out->label = out->ranking.front().first;
  out->probability = out->ranking.front().second;
}

void recordPrediction(const Expected<InferenceOutcome>& result, SamplePrediction* prediction) {
  if (result.ok()) {
    prediction->answer = result->label;
    prediction->probability = result->probability;
  }
  prediction->correct = prediction->answer == prediction->expected;
}

void recordClassProbabilities(const torch::Tensor& probabilities,
                              const std::vector<std::string>& names, SamplePrediction* prediction) {
  InferenceOutcome answer;
  rankClasses(probabilities, names, &answer);
  recordPrediction(answer, prediction);
}

AttentionSnapshot probedAttention(Expected<InferenceOutcome> probed, const std::string& task,
                                  int index) {
  AttentionSnapshot snapshot = probed.ok() ? std::move(probed->attention) : AttentionSnapshot{};
  snapshot.task = task;
  snapshot.sample_index = index;
  return snapshot;
}

}  // namespace ascope
