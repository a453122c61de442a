#pragma once
// The validation pass the classification tasks share: summed cross-entropy and correct answers
// over the held-out rows, a batch at a time, with the model in eval mode and no autograd.
#include <torch/nn/module.h>
#include <torch/types.h>

#include <cstdint>
#include <functional>

#include "engine/tasks/task.h"

namespace ascope {

/// Over the first `max_samples` rows of `labels` (all of them when 0 or more than there are),
/// `batch` rows at a time; `logits_of(start, count)` answers rows [start, start + count) on
/// `device`. `model` is in eval mode during the pass and in train mode after it.
EvaluationOutcome evaluateClassifier(
    torch::nn::Module& model, const torch::Tensor& labels, int max_samples, int64_t batch,
    const torch::Device& device,
    const std::function<torch::Tensor(int64_t start, int64_t count)>& logits_of);

}  // namespace ascope
