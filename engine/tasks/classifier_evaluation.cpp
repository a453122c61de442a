#include "engine/tasks/classifier_evaluation.h"

#include <torch/nn/functional/loss.h>
#include <torch/utils.h>

#include <algorithm>

namespace ascope {

EvaluationOutcome evaluateClassifier(
    torch::nn::Module& model, const torch::Tensor& labels, int max_samples, int64_t batch,
    const torch::Device& device,
    const std::function<torch::Tensor(int64_t start, int64_t count)>& logits_of) {
  torch::NoGradGuard no_grad;
  model.eval();
  const int64_t rows = labels.size(0);
  const int64_t n = max_samples > 0 ? std::min<int64_t>(max_samples, rows) : rows;
  double loss_sum = 0;
  int64_t correct = 0;
  for (int64_t start = 0; start < n; start += batch) {
    const int64_t count = std::min(batch, n - start);
    const torch::Tensor logits = logits_of(start, count);
    const torch::Tensor truth = labels.narrow(0, start, count).to(device);
    loss_sum +=
        torch::nn::functional::cross_entropy(
            logits, truth, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum))
            .item<double>();
    correct += logits.argmax(-1).eq(truth).sum().item<int64_t>();
  }
  model.train();
  EvaluationOutcome out;
  out.loss = n > 0 ? loss_sum / n : 0;
  out.accuracy = n > 0 ? static_cast<double>(correct) / n : 0;
  return out;
}

BatchOutcome classifierBatchOutcome(const torch::Tensor& logits, const torch::Tensor& labels,
                                    double label_smoothing) {
  BatchOutcome out;
  out.loss = torch::nn::functional::cross_entropy(
      logits, labels,
      torch::nn::functional::CrossEntropyFuncOptions().label_smoothing(label_smoothing));
  out.correct = logits.argmax(-1).eq(labels).sum().item<int64_t>();  // sync point
  out.counted = out.samples = labels.size(0);
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
    prediction->predicted_label = result->label;
    prediction->probability = result->probability;
  }
  prediction->correct = prediction->predicted_label == prediction->true_label;
}

AttentionSnapshot probedAttention(Expected<InferenceOutcome> probed, const std::string& task,
                                  int index) {
  AttentionSnapshot snapshot = probed.ok() ? std::move(probed->attention) : AttentionSnapshot{};
  snapshot.task = task;
  snapshot.sample_index = index;
  return snapshot;
}

}  // namespace ascope
