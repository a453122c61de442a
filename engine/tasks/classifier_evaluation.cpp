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

}  // namespace ascope
