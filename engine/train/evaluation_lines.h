#pragma once
// What a run says of its evaluations: the summary of a validation pass beside the training steps'
// figures since the last one, and the log lines of that pass and of the final test. Plain
// functions of their figures, so that the session only runs the passes and sends what these make.
#include <string>
#include <vector>

#include "engine/tasks/task.h"
#include "engine/train/training_figure_sums.h"
#include "engine/vocabulary/metric_info.h"
#include "engine/vocabulary/training_metrics.h"

namespace ascope {

/// The summary of the validation pass `validation` after `epoch`, at `step` with rate `lr`, beside
/// the training figures `since_last` gathered since the pass before.
EpochSummary epochSummary(int epoch, int64_t step, const TrainingFigureSums& since_last,
                          const EvaluationOutcome& validation, double lr);

/// "epoch 2 step 80: train loss 0.5123 acc 0.812 | val loss 0.6012 acc 0.790 BLEU 12.3 (0.41 s)":
/// the task's figures as `metrics` declares them.
std::string epochLine(const EpochSummary& s, const std::vector<MetricInfo>& metrics,
                      double seconds);

/// "weights averaged over the last 966 steps (steps 3382–4347): val loss 3.3012 acc 0.512 BLEU 16.1
/// (best epoch's acc 0.508): the average is best.pt from here (0.41 s)"; `becomes_best` says
/// which weights won.
std::string averageLine(int64_t steps, int64_t last_step, const EvaluationOutcome& validation,
                        double best_accuracy, bool becomes_best,
                        const std::vector<MetricInfo>& metrics, double seconds);

/// "test (500 samples: …; weights of step 80 (best)): loss 0.6012 acc 0.790 … (1.20 s)", or "final
/// figure on the validation split …" for a run made before separate test splits.
std::string testLine(const TestEvaluation& t, const std::vector<MetricInfo>& metrics);

}  // namespace ascope
