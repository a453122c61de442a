#pragma once
#include "engine/models/text_classifier.h"
#include "engine/tasks/task.h"
#include "engine/text/words/imdb_word_tokenizer.h"
#include "engine/vocabulary/datasets.h"

namespace ascope {

/// Review → negative/positive with a small encoder and mean pooling (the IMDB reference).
class SentimentTask : public Task {
 public:
  /// Builds the model for `tokenizer`; `data` may be empty (inference).
  SentimentTask(const TrainingConfig& config, TextDataset data, ImdbWordTokenizer tokenizer,
                const torch::Device& device);

  torch::nn::Module& model() override { return *model_; }
  int64_t trainSize() const override { return train_ids_.size(0); }
  int64_t validationSize() const override { return test_ids_.size(0); }
  std::string describe() const override;

  BatchOutcome trainBatch(const std::vector<int64_t>& indices) override;
  double trainingFlops(const std::vector<int64_t>& indices) const override;
  EvaluationOutcome evaluate(int max_samples, int decode_samples) override;
  AttentionSnapshot probeAttention(int index) override;
  SamplePrediction predictSample(int index) override;
  PositionalEncodingSnapshot positionalEncoding() override;
  std::vector<AttentionSite> attentionSites() override;
  Status saveArtifacts(const std::string& run_dir) const override;
  Expected<InferenceOutcome> inferText(const std::string& text) override;

 private:
  torch::Tensor encodeAll(const std::vector<TextSample>& samples, torch::Tensor* labels) const;
  /// One forward pass over `ids` (1, T) with its attention labelled by `tokens` (the words behind
  /// the non-padding ids); `logits` gets the class scores (1, 2). Model in eval mode, no grad.
  AttentionSnapshot attentionOf(const torch::Tensor& ids, std::vector<std::string> tokens,
                                torch::Tensor* logits);
  /// inferText, with the attention only when `with_attention` (the probe's sample needs none).
  Expected<InferenceOutcome> classify(const std::string& text, bool with_attention);

  TrainingConfig config_;
  TextClassifierConfig text_;  ///< config_.model, with the sizes the data fixes
  torch::Device device_;
  TextDataset data_;
  ImdbWordTokenizer tokenizer_;
  torch::Tensor train_ids_, train_labels_;  // (N, max_len) int64, (N) int64, CPU
  torch::Tensor test_ids_, test_labels_;
  TextClassifier model_{nullptr};
};

}  // namespace ascope
