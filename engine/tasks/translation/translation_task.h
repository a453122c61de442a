#pragma once
#include <array>

#include "engine/models/seq2seq_translator.h"
#include "engine/tasks/task.h"
#include "engine/tasks/translation/beam_search.h"
#include "engine/tasks/translation/translation_data_settings.h"
#include "engine/text/pieces/translation_tokenizer.h"
#include "engine/vocabulary/datasets.h"

namespace ascope {

struct BeamPayload;

/// English→Italian (or any pair) with the encoder-decoder: teacher forcing with label smoothing for
/// training, greedy decoding for validation, test and inference. Training pairs longer than
/// seq_len are dropped; validation and test pairs are all kept (their sources cut to seq_len), and
/// their translations are scored against the raw reference text.
class TranslationTask : public Task {
 public:
  /// `pad_to` > 0: every batch is padded to that many source and decoder tokens (a benchmark's
  /// fixed shapes, see BenchmarkShapes), at least as many as longestTrainingSide().
  TranslationTask(const TrainingConfig& config, TranslationDataset data,
                  TranslationTokenizer source_tokenizer, TranslationTokenizer target_tokenizer,
                  const torch::Device& device, int64_t pad_to = 0);

  torch::nn::Module& model() override { return *model_; }
  int64_t trainSize() const override { return static_cast<int64_t>(encoded_[0].size()); }
  int64_t validationSize() const override { return static_cast<int64_t>(encoded_[1].size()); }
  int64_t testSize() const override { return static_cast<int64_t>(encoded_[2].size()); }
  SplitOrigins splitOrigins() const override { return origins_; }
  std::string describe() const override;

  BatchOutcome trainBatch(const std::vector<int64_t>& indices) override;
  /// Source tokens + decoder tokens of each training pair: what a batch is padded over.
  std::vector<int64_t> trainingLengths() const override;
  double trainingFlops(const std::vector<int64_t>& indices) const override;
  EvaluationOutcome evaluate(DataSplit split, int max_samples, FigureSamples figures) override;
  Expected<std::vector<ScoredSample>> scoreSplit(DataSplit split,
                                                 const ScoringProgress& progress) override;
  /// Token-weighted loss and accuracy, and every translation figure with BLEU's details.
  EvaluationOutcome summarizeScores(const std::vector<ScoredSample>& scored) const override;
  AttentionSnapshot probeAttention(int index) override;
  SamplePrediction predictSample(int index) override;
  /// Teacher forcing on the references, all samples in one forward pass: the rows are the same at
  /// every step, and a probe costs one pass instead of a greedy decoding per sample. The
  /// translations themselves come from generatePredictions.
  std::vector<AttentionSnapshot> probeSamples(const std::vector<int>& indices) override;
  /// Greedy translations of the samples, decoded together.
  std::vector<SamplePrediction> generatePredictions(const std::vector<int>& indices) override;
  PositionalEncodingSnapshot positionalEncoding() override;
  std::vector<AttentionSite> attentionSites() override;
  Status saveArtifacts(const std::string& run_dir) const override;
  Expected<InferenceOutcome> inferText(const std::string& text) override;

  std::size_t droppedForLength() const { return dropped_; }
  /// The most tokens a training batch can need on one side: the longest source ([SOS] words [EOS])
  /// or decoder input ([SOS] words); the least a fixed padding must give.
  int64_t longestTrainingSide() const;

 private:
  struct EncodedPair {
    std::vector<int64_t> source;  ///< [SOS] words [EOS]
    std::vector<int64_t> target;  ///< words (no specials)
  };
  struct Batch {
    torch::Tensor source, decoder_input, labels;  // (B, Ts), (B, Tt), (B, Tt)
  };
  EncodedPair encodePair(const TranslationPair& pair) const;
  /// A held-out pair: the source cut to seq_len as encodeSource cuts it, the reference's tokens to
  /// what the decoder can be fed (seq_len − 1 words after [SOS]).
  EncodedPair encodeHeldOutPair(const TranslationPair& pair) const;
  std::vector<int64_t> encodeSource(const std::string& text) const;
  /// One decoding step of a source: the token it chose and the candidates it chose among.
  struct ChosenStep {
    int64_t chosen = 0;
    DecodingStep candidates;
  };
  Batch makeBatch(const std::vector<const EncodedPair*>& pairs) const;
  /// Columns of the batch of training pairs `indices`, source and decoder, pad_to_ included.
  std::pair<int64_t, int64_t> paddedLengths(const std::vector<int64_t>& indices) const;
  BatchOutcome lossOf(const Batch& batch);
  /// Per pair of `batch`: the mean loss over its reference tokens, and its right and counted
  /// tokens (B each). No grad.
  struct PairLosses {
    std::vector<double> loss;
    std::vector<int64_t> correct, counted;
  };
  PairLosses pairLossesOf(const Batch& batch);
  /// Greedy translations of the first `count` pairs of `split`, detokenized; decoded in batches of
  /// similar source length. `progress` hears after each batch; false when it cancelled.
  bool translate(DataSplit split, int64_t count, std::vector<std::string>* hypotheses,
                 const ScoringProgress& progress = {});
  /// Greedy decoding of several sources at once; returns the target ids of each (no specials).
  /// With `steps`, also every step of each source until it said [EOS].
  std::vector<std::vector<int64_t>> greedyDecode(
      const std::vector<std::vector<int64_t>>& sources,
      std::vector<std::vector<ChosenStep>>* steps = nullptr);
  /// Beam search (translator_.beam_width hypotheses) of several sources at once; `keep_tree`
  /// records every candidate each step weighed.
  std::vector<BeamResult> beamDecode(const std::vector<std::vector<int64_t>>& sources,
                                     bool keep_tree);
  /// The most tokens a translation of `source` may have, [EOS] and [SOS] included: a translation
  /// is rarely more than twice as long as its source.
  int64_t lengthLimit(const std::vector<int64_t>& source) const;
  /// The candidates of every row of `logits` (N, V), read in one pass: softmax and top-k of all
  /// rows at once (a probe asks for some hundred rows).
  std::vector<ChosenStep> candidatesOf(const torch::Tensor& logits) const;
  /// Translates `source` ([SOS] words [EOS]) greedily and captures the attention of the tokens it
  /// fed; `hypothesis` gets the target ids (no specials). Model in eval mode, no grad.
  AttentionSnapshot attentionOf(const std::vector<int64_t>& source,
                                std::vector<int64_t>* hypothesis);
  /// One teacher-forced pass over `sources` and the decoder inputs `fed` ([SOS] words each), all at
  /// once: the attention of each pair, its rows predicting the next token with `steps` (one per fed
  /// token; ones missing are read off this pass); `fed_reference`: `fed` is the reference (teacher
  /// forcing), as the transcript says. Model in eval mode, no grad.
  std::vector<AttentionSnapshot> attentionOfFed(const std::vector<std::vector<int64_t>>& sources,
                                                const std::vector<std::vector<int64_t>>& fed,
                                                std::vector<std::vector<ChosenStep>> steps,
                                                bool fed_reference);
  /// The beam as the Decoding dock draws it: tokens as labels, each finished hypothesis with
  /// `attention[i]`, the attention of the decoder fed that hypothesis.
  BeamPayload beamPayloadOf(const BeamResult& beam, std::vector<AttentionSnapshot> attention) const;
  /// The sample prediction of validation pair `at` translated as `hypothesis`.
  SamplePrediction predictionOf(std::size_t at, const std::vector<int64_t>& hypothesis) const;

  TrainingConfig config_;
  TranslatorConfig translator_;  ///< config_'s model settings, with the sizes the data fixes
  TranslationDataSettings data_settings_;  ///< config_'s languages and decoded samples
  torch::Device device_;
  TranslationTokenizer source_tokenizer_, target_tokenizer_;
  /// Per split (splitSlot): the pairs as text (held-out ones: their raw reference) and encoded.
  std::array<std::vector<TranslationPair>, 3> text_;
  std::array<std::vector<EncodedPair>, 3> encoded_;
  SplitOrigins origins_;
  std::size_t dropped_ = 0;
  /// The share of [UNK] among the training pairs' source and target tokens (0 with pieces).
  std::array<double, 2> unknown_share_{};
  int64_t pad_to_ = 0;
  Seq2SeqTranslator model_{nullptr};
};

}  // namespace ascope
