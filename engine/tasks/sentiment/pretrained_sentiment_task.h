#pragma once
#include <array>
// The sentiment task with a pretrained Hugging Face BERT (TrainingConfig::pretrained) in place of
// the small encoder: the model's own WordPiece tokenizer, its encoder, a fresh negative/positive
// head. A run folder keeps the model's config.json and tokenizer files under pretrained/ (the
// run's own config.json and tokenizer.json sit next to it), so inference needs only the run.
#include <memory>
#include <string>
#include <vector>

#include "engine/pretrained/bert_model.h"
#include "engine/tasks/task.h"
#include "engine/text/bert/bert_tokenizer.h"
#include "engine/vocabulary/datasets.h"

namespace ascope {

class PretrainedSentimentTask : public Task {
 public:
  /// Reads config.pretrained (weights, tokenizer) and pre-encodes `data`. A tokenizer that knows
  /// under half of the training reviews' words is said in `warnings` (when set): the rest become
  /// [UNK], and a fine-tune then learns next to nothing (tiny_bert's 106 words: loss 0.79 → 0.77).
  static Expected<std::unique_ptr<Task>> forTraining(const TrainingConfig& config, TextDataset data,
                                                     const torch::Device& device,
                                                     std::vector<std::string>* warnings = nullptr);
  /// The model of a trained run, shaped by run_dir/pretrained/config.json; its weights come from
  /// the checkpoint the caller loads. `data` (may be empty) is what it is asked to score.
  static Expected<std::unique_ptr<Task>> forInference(const TrainingConfig& config,
                                                      const std::string& run_dir,
                                                      const torch::Device& device,
                                                      TextDataset data = {});

  /// `model_folder` is where saveArtifacts copies the tokenizer and config from ("" for
  /// inference); `data` may be empty (inference).
  PretrainedSentimentTask(const TrainingConfig& config, TextDataset data, BertTokenizer tokenizer,
                          BertModel model, std::string model_folder, const torch::Device& device);

  torch::nn::Module& model() override { return *model_; }
  int64_t trainSize() const override { return ids_[0].size(0); }
  int64_t validationSize() const override { return ids_[1].size(0); }
  int64_t testSize() const override { return ids_[2].size(0); }
  SplitOrigins splitOrigins() const override { return data_.origins; }
  std::string describe() const override;

  BatchOutcome trainBatch(const std::vector<int64_t>& indices) override;
  EvaluationOutcome evaluate(DataSplit split, int max_samples, FigureSamples figures) override;
  Expected<std::vector<ScoredSample>> scoreSplit(DataSplit split,
                                                 const ScoringProgress& progress) override;
  AttentionSnapshot probeAttention(int index) override;
  SamplePrediction predictSample(int index) override;
  PositionalEncodingSnapshot positionalEncoding() override;
  std::vector<AttentionSite> attentionSites() override;
  Status saveArtifacts(const std::string& run_dir) const override;
  Expected<InferenceOutcome> inferText(const std::string& text) override;
  std::vector<std::string> classNames() const override { return classList(); }

 private:
  /// `text` as the model reads it: [CLS] … [SEP], truncated to max_length_, no padding.
  BertEncoding encodeOne(const std::string& text) const;
  /// (N, max_length_) ids and attention mask, padded; labels (N). CPU.
  void encodeAll(const std::vector<TextSample>& samples, torch::Tensor* ids, torch::Tensor* mask,
                 torch::Tensor* labels) const;
  /// Logits (B, 2) of rows `ids`/`mask`, cut to the longest real input among them.
  torch::Tensor logitsOf(const torch::Tensor& ids, const torch::Tensor& mask,
                         std::vector<torch::Tensor>* attention = nullptr);
  Expected<InferenceOutcome> classify(const std::string& text, bool with_attention);
  /// Of the different words in the training reviews (the basic tokenizer's), the share the
  /// tokenizer makes [UNK]; 0 without words.
  double unknownWordShare() const;
  const std::vector<std::string>& classList() const;

  TrainingConfig config_;
  torch::Device device_;
  TextDataset data_;
  BertTokenizer tokenizer_;
  std::string model_folder_;
  int64_t max_length_ = 0;  // the text settings' max_len, within the model's positions
  /// Per split (splitSlot): (N, max_length_) ids and mask, (N) labels, int64, on the CPU.
  std::array<torch::Tensor, 3> ids_, mask_, labels_;
  BertModel model_{nullptr};
};

}  // namespace ascope
