#pragma once
// "Reverse the letters" — a task scored by edit distance: generated words, its own small model
// (letter_reversal_model.h), an answer lined up against the reversed word (TextAlignment). The
// word is read right-aligned, so each position writes the letter at its mirror position: the
// attention draws an anti-diagonal.
#include <torch/types.h>

#include <array>
#include <string>
#include <vector>

#include "engine/tasks/letter_reversal/letter_reversal_config.h"
#include "engine/tasks/letter_reversal/letter_reversal_model.h"
#include "engine/tasks/task.h"

namespace ascope {

class LetterReversalTask : public Task {
 public:
  /// The three splits' words; any may be empty (inference).
  LetterReversalTask(const TrainingConfig& config, std::array<std::vector<std::string>, 3> words,
                     const torch::Device& device);

  torch::nn::Module& model() override { return *model_; }
  int64_t trainSize() const override { return count(0); }
  int64_t validationSize() const override { return count(1); }
  int64_t testSize() const override { return count(2); }
  SplitOrigins splitOrigins() const override;
  std::string describe() const override;

  BatchOutcome trainBatch(const std::vector<int64_t>& indices) override;
  double trainingFlops(const std::vector<int64_t>& indices) const override;
  EvaluationOutcome evaluate(DataSplit split, int max_samples, FigureSamples figures) override;
  Expected<std::vector<ScoredSample>> scoreSplit(DataSplit split,
                                                 const ScoringProgress& progress) override;
  EvaluationOutcome summarizeScores(const std::vector<ScoredSample>& scored) const override;
  AttentionSnapshot probeAttention(int index) override;
  SamplePrediction predictSample(int index) override;
  PositionalEncodingSnapshot positionalEncoding() override;
  std::vector<AttentionSite> attentionSites() override;
  Status saveArtifacts(const std::string& run_dir) const override;
  Expected<InferenceOutcome> inferText(const std::string& text) override;

 private:
  /// What the model makes of some words at once (eval mode, no grad).
  struct Answers {
    std::vector<std::string> words;  ///< each word's letters as the model wrote them
    std::vector<double> loss;        ///< per word, over its letters and END
    std::vector<int64_t> correct, counted;
  };
  Answers answer(const torch::Tensor& ids, const torch::Tensor& targets);
  /// `word` and the model's answer for it, with the answer lined up against the reversed word.
  SamplePrediction predictionOf(const std::string& word, const std::string& answer,
                                int index) const;
  /// The model's answer for `word`, with its attention.
  InferenceOutcome ask(const std::string& word);
  int64_t count(std::size_t split) const { return static_cast<int64_t>(words_[split].size()); }

  TrainingConfig config_;
  LetterReversalConfig settings_;  ///< config_'s model settings
  torch::Device device_;
  std::array<std::vector<std::string>, 3> words_;
  std::array<torch::Tensor, 3> ids_, targets_;  ///< per split, (N, max_letters + 1) int64, CPU
  LetterReversalModel model_{nullptr};
};

}  // namespace ascope
