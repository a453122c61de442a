#pragma once
// Scoring a trained run on a data set: `attentionscope-cli evaluate` and the GUI's "Evaluate
// on…". The run's model (best weights, else last) answers every sample of one split of the data;
// the report has the figures, a confusion matrix with per-class scores (classification) or
// sacreBLEU's BLEU and chrF with CER, WER and exact match (translation), every sample's answer, and
// the most confidently wrong ones asked again with their attention. Plain C++ (the .cpp uses
// LibTorch): call it off the GUI thread.
#include <optional>
#include <string>

#include "engine/vocabulary/data_split.h"
#include "engine/vocabulary/evaluation_report.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

struct EvaluationRequest {
  std::string run_dir;
  /// A data set in a format the run's task reads. Split as the run split its own data (its seed,
  /// its validation and test fractions), so the run's training data gives back its own splits.
  std::string data;
  /// The split scored. With `whole_data`, every sample of `data` instead: its own test split when
  /// it has one, else all of it (a held-out file, say). Neither given: the test split of the run's
  /// own data, and every sample of any other data set (a carved tenth of a file the run never saw
  /// would throw nine tenths of it away).
  std::optional<DataSplit> split;
  bool whole_data = false;
  int errors = 10;             ///< most confidently wrong samples asked again with attention
  std::string device = "cpu";  ///< "cpu" or "cuda"
  /// Translation: > 0 translates with a beam this wide (1 greedy), and with a beam (> 1) the
  /// report also has greedy's BLEU beside it; 0 as the run's settings say.
  int beam_width = 0;
};

/// The report, or an error for a person ("cancelled" when `progress` cancelled). Progress is
/// reported as samples scored out of the split's size, then the errors asked again.
Expected<EvaluationReport> evaluateRun(const EvaluationRequest& request,
                                       const ScoringProgress& progress = {});

}  // namespace ascope
