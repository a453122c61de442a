#pragma once
// A run's final test on its test split, with the weights the run's settings choose: those of
// checkpoints/best.pt when `final_weights` is "best" and they beat the last evaluation's
// validation accuracy (or none was made), else the last ones. The model keeps its final weights
// afterwards whatever happens (an error in the evaluation included).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "engine/tasks/task.h"
#include "engine/vocabulary/training_metrics.h"

namespace ascope {

struct FinalTestChoice {
  std::string final_weights = "best";  ///< TrainingConfig::final_weights: "best" or "last"
  std::string best_path;               ///< checkpoints/best.pt of the run
  /// The validation accuracy of the session's newest evaluation, when it made one.
  std::optional<double> last_val_accuracy;
  /// best.pt whenever it reads, better or not: the weights `evaluate` and `infer` answer with.
  bool prefer_best = false;
};

/// Runs `work` with the final weights (as evaluateWithFinalWeights chooses them) in the task's
/// model, telling it their step, and puts the last weights back afterwards, also when `work`
/// throws. `step` is the run's last step; `warn` hears why best.pt could not be read.
void withFinalWeights(Task& task, const FinalTestChoice& choice, std::int64_t step,
                      const std::function<void(const std::string&)>& warn,
                      const std::function<void(std::int64_t weights_step, bool best)>& work);

/// Fills `t`'s samples, weights_step, best_weights, loss, accuracy and figures (t.step: the
/// run's last step). `warn` hears why best.pt was not used when it could not be read.
void evaluateWithFinalWeights(Task& task, const FinalTestChoice& choice, TestEvaluation& t,
                              const std::function<void(const std::string&)>& warn);

}  // namespace ascope
