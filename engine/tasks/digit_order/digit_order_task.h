#pragma once
// "Are these digits in order?" — the digit-order task: generated sequences, its own small model
// (digit_order_model.h), attention over a CLS token and the digits.
#include <torch/types.h>

#include <vector>

#include "engine/tasks/digit_order/digit_order_config.h"
#include "engine/tasks/digit_order/digit_order_model.h"
#include "engine/tasks/digit_order/digit_sequences.h"
#include "engine/tasks/task.h"

namespace ascope {

class DigitOrderTask : public Task {
 public:
  /// `train` and `validation` may be empty (inference); `test` is empty but for `evaluate --split
  /// all`, which asks every held-out sequence of the generator (training has no test split).
  DigitOrderTask(const TrainingConfig& config, std::vector<DigitSequence> train,
                 std::vector<DigitSequence> validation, const torch::Device& device,
                 std::vector<DigitSequence> test = {}, SplitOrigins origins = {});

  torch::nn::Module& model() override { return *model_; }
  int64_t trainSize() const override { return static_cast<int64_t>(train_.size()); }
  int64_t validationSize() const override { return static_cast<int64_t>(validation_.size()); }
  int64_t testSize() const override { return static_cast<int64_t>(test_.size()); }
  SplitOrigins splitOrigins() const override { return origins_; }
  std::string describe() const override;

  BatchOutcome trainBatch(const std::vector<int64_t>& indices) override;
  double trainingFlops(const std::vector<int64_t>& indices) const override;
  /// Its generated data has no test split: the test split is empty (in training).
  EvaluationOutcome evaluate(DataSplit split, int max_samples, FigureSamples figures) override;
  Expected<std::vector<ScoredSample>> scoreSplit(DataSplit split,
                                                 const ScoringProgress& progress) override;
  AttentionSnapshot probeAttention(int index) override;
  SamplePrediction predictSample(int index) override;
  PositionalEncodingSnapshot positionalEncoding() override;
  std::vector<AttentionSite> attentionSites() override;
  Status saveArtifacts(const std::string& run_dir) const override;
  Expected<InferenceOutcome> inferText(const std::string& text) override;

 private:
  /// The model's answer for `digits` (eval mode, no grad), with its attention when asked.
  InferenceOutcome classify(const std::vector<int>& digits, bool with_attention);

  TrainingConfig config_;
  DigitOrderConfig settings_;  ///< config_'s model settings
  torch::Device device_;
  std::vector<DigitSequence> train_, validation_, test_;
  SplitOrigins origins_;
  torch::Tensor train_ids_, train_labels_;  // (N, length + 1) int64 with CLS first, (N), CPU
  torch::Tensor validation_ids_, validation_labels_;
  torch::Tensor test_ids_, test_labels_;
  DigitOrderModel model_{nullptr};
};

/// The ids of `digits` with CLS first: (1 + digits) int64.
torch::Tensor digitOrderIds(const std::vector<int>& digits);

}  // namespace ascope
