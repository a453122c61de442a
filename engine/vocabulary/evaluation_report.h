#pragma once
// What scoring a trained run on a data set finds (engine/evaluation/run_evaluation.h): its
// figures, a confusion matrix with per-class scores, every sample's answer, and the worst errors
// with the attention that made them. Plain values: the CLI writes them as JSON, the GUI's Errors
// dock shows them.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/vocabulary/attention_snapshot.h"
#include "engine/vocabulary/calibration.h"
#include "engine/vocabulary/figures.h"

namespace ascope {

/// One sample of a scored split.
struct ScoredSample {
  std::int64_t index = 0;  ///< within its split
  /// Its input (review, source sentence or image), reference, the model's answer, the answer's
  /// probability (classification) and whether it is right (translation: exactly the reference).
  SamplePrediction prediction;
  int true_class = -1;  ///< classification: index into EvaluationReport::classes; else -1
  int predicted_class = -1;
  /// Cross-entropy of the reference: of the true class, or for a translation the mean over the
  /// reference's tokens with the reference fed (teacher forcing).
  double loss = 0;
  std::int64_t correct_tokens = 0;  ///< translation: reference tokens predicted right
  std::int64_t counted_tokens = 0;
  /// Classification: the model's logit of every class, so that a temperature can be fitted to
  /// them and applied (engine/scoring/temperature_scaling.h); empty for other tasks.
  std::vector<float> logits;
};

/// Progress and Cancel of a long scoring pass, called from the thread that scores.
struct ScoringProgress {
  std::function<void(std::int64_t done, std::int64_t total)> report;  ///< may be empty
  const std::atomic<bool>* cancel = nullptr;                          ///< may be null

  bool cancelled() const { return cancel != nullptr && cancel->load(); }
  void operator()(std::int64_t done, std::int64_t total) const {
    if (report) report(done, total);
  }
};

/// Precision, recall and F1 of one class over the confusion matrix.
struct ClassScores {
  std::string name;
  std::int64_t support = 0;    ///< samples of the class
  std::int64_t predicted = 0;  ///< samples answered as the class
  double precision = 0;
  double recall = 0;
  double f1 = 0;
};

/// A wrong answer asked again, with every layer's and head's attention.
struct ExplainedError {
  ScoredSample sample;
  AttentionSnapshot attention;
};

struct EvaluationReport {
  std::string task;  ///< the run's task id
  std::string run_dir;
  std::string data;          ///< the data set scored
  std::string split;         ///< "train", "validation" or "test"
  std::string split_origin;  ///< where that split came from, in words
  std::string checkpoint;    ///< the weights' file
  std::int64_t step = 0;     ///< of those weights
  std::string device;
  std::int64_t samples = 0;
  double loss = 0;      ///< mean over the samples (translation: over reference tokens)
  double accuracy = 0;  ///< translation: token accuracy
  /// Classification: class names, the confusion matrix ([true][predicted] counts), per class.
  std::vector<std::string> classes;
  std::vector<std::vector<std::int64_t>> confusion;
  std::vector<ClassScores> per_class;
  double macro_f1 = 0;
  /// Classification: the expected calibration error and reliability diagram of the split, before
  /// and after the run's temperature (which `scored`'s probabilities carry).
  std::optional<AppliedCalibration> calibration;
  /// The task's declared figures over the whole split, tracked and not (a translation: BLEU with
  /// its n-gram precisions and brevity penalty, chrF, CER, WER, …).
  Figures figures;
  std::vector<ScoredSample> scored;   ///< every sample, in split order
  std::vector<ExplainedError> worst;  ///< the most confidently wrong, highest loss first
  std::vector<std::string> warnings;  ///< from loading the data
  double seconds = 0;
};

}  // namespace ascope
