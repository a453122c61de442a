#pragma once
#include <array>

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
  int64_t trainSize() const override { return ids_[0].size(0); }
  int64_t validationSize() const override { return ids_[1].size(0); }
  int64_t testSize() const override { return ids_[2].size(0); }
  SplitOrigins splitOrigins() const override { return data_.origins; }
  std::string describe() const override;

  BatchOutcome trainBatch(const std::vector<int64_t>& indices) override;
  std::vector<int64_t> trainingLengths() const override;
  double trainingFlops(const std::vector<int64_t>& indices) const override;
  EvaluationOutcome evaluate(DataSplit split, int max_samples, FigureSamples figures) override;
  Expected<std::vector<ScoredSample>> scoreSplit(DataSplit split,
                                                 const ScoringProgress& progress) override;
  AttentionSnapshot probeAttention(int index) override;
  SamplePrediction predictSample(int index) override;
  /// All samples in one forward pass, their attention and their predicted class from it.
  std::vector<AttentionSnapshot> probeSamples(const std::vector<int>& indices) override;
  PositionalEncodingSnapshot positionalEncoding() override;
  std::vector<AttentionSite> attentionSites() override;
  Status saveArtifacts(const std::string& run_dir) const override;
  Expected<InferenceOutcome> inferText(const std::string& text) override;
  std::vector<std::string> classNames() const override { return data_.class_names; }

 private:
  torch::Tensor encodeAll(const std::vector<TextSample>& samples, torch::Tensor* labels) const;
  /// Class scores (B, 2) of reviews [start, start + count) of `split`, run kLengthGroup reviews
  /// of similar length at a time.
  torch::Tensor logitsOf(DataSplit split, int64_t start, int64_t count);
  static constexpr int64_t kLengthGroup = 32;
  /// One forward pass over `ids` (1, T) with its attention labelled by `tokens` (the words behind
  /// the non-padding ids); `logits` gets the class scores (1, 2). Model in eval mode, no grad.
  AttentionSnapshot attentionOf(const torch::Tensor& ids, std::vector<std::string> tokens,
                                torch::Tensor* logits);
  /// Validation review `row` as a sample to predict: its text and true label, no answer yet.
  SamplePrediction validationSample(int64_t row) const;
  /// The names answers give the two classes: the data's own, else negative and positive.
  std::vector<std::string> answerNames() const;
  /// inferText, with the attention only when `with_attention` (the probe's sample needs none).
  Expected<InferenceOutcome> classify(const std::string& text, bool with_attention);

  TrainingConfig config_;
  TextClassifierConfig text_;  ///< config_'s model settings, with the sizes the data fixes
  double word_dropout_ = 0.0;  ///< ReviewDataSettings::word_dropout, for training batches
  torch::Device device_;
  TextDataset data_;
  ImdbWordTokenizer tokenizer_;
  /// Per split (splitSlot): (N, max_len) token ids and (N) labels, int64, on the CPU.
  std::array<torch::Tensor, 3> ids_, labels_;
  TextClassifier model_{nullptr};
};

}  // namespace ascope
