#pragma once
// What training measured: each step, each evaluation, the final test, live learning-rate changes.
#include <cstdint>
#include <string>

#include "engine/vocabulary/figures.h"

namespace ascope {

/// One optimizer step (coalesced when the reader is slow).
struct StepMetrics {
  int64_t step = 0;  ///< 1-based count of optimizer steps done
  int epoch = 0;     ///< 1-based
  double loss = 0;
  double accuracy = 0;  ///< token accuracy for translation
  double lr = 0;
  double samples_per_s = 0;
  int64_t total_steps = 0;
  double elapsed_s = 0;
  double eta_s = 0;
};

/// End of an epoch (or of an evaluation pass).
struct EpochSummary {
  int epoch = 0;
  int64_t step = 0;
  double train_loss = 0;
  double train_accuracy = 0;
  double val_loss = 0;
  double val_accuracy = 0;
  double lr = 0;  ///< the learning rate at the end of the evaluated step
  /// The validation pass's figures the task declares as tracked (TaskDescriptor::metrics).
  Figures figures;
};

/// The end of a run that reached its end (finished, or its time limit): the whole test split
/// (engine/vocabulary/data_split.h) evaluated once, with the weights the validation split chose.
/// The run's final test figure; never computed on data the run looked at while training.
struct TestEvaluation {
  /// "test": the test split. "none": the data has no test split, so there is no test figure
  /// (every other field but `step` and `epoch` is empty). "validation": a run made before separate
  /// test splits, whose final figure was its whole validation split (so labelled when read back).
  std::string split = "test";
  std::string origin;  ///< where the split came from, in words ("" when read from metrics.csv)
  int epoch = 0;
  int64_t step = 0;          ///< the run's last step
  int64_t weights_step = 0;  ///< the step whose weights were evaluated
  /// The weights were those of checkpoints/best.pt (best validation accuracy), not the last ones.
  bool best_weights = false;
  int64_t samples = 0;  ///< every sample of the split
  double loss = 0;
  double accuracy = 0;
  double lr = 0;  ///< the learning rate at the run's last step
  /// The task's tracked figures over the whole split (a translation: every sentence decoded).
  Figures figures;
  double seconds = 0;  ///< how long it took (0 when read back from metrics.csv)
};

/// The learning rate set by a command while the run went on: `lr` replaces the schedule from
/// `step` (the first step trained with it) to the end of the run.
struct LearningRateChange {
  int64_t step = 0;
  double lr = 0;
  double previous_lr = 0;  ///< what the step would have used without the change
};

}  // namespace ascope
