#include "engine/train/final_test.h"

#include <filesystem>
#include <system_error>

#include "engine/train/checkpoint.h"
#include "engine/train/model_weights_copy.h"

namespace ascope {

void withFinalWeights(Task& task, const FinalTestChoice& choice, std::int64_t step,
                      const std::function<void(const std::string&)>& warn,
                      const std::function<void(std::int64_t weights_step, bool best)>& work) {
  std::int64_t weights_step = step;
  bool best_weights = false;
  std::error_code no_file;
  std::optional<ModelWeightsCopy> final_weights;
  if (choice.final_weights == "best" && std::filesystem::exists(choice.best_path, no_file)) {
    final_weights.emplace(task.model());
    // Model weights only: the optimizer and the progress stay those of the run's end (last.pt).
    const Expected<TrainingProgress> best = loadCheckpoint(choice.best_path, task.model(), nullptr);
    if (!best.ok()) {
      warn(best.error());
    } else if (choice.prefer_best ||
               (choice.last_val_accuracy ? best->best_val_accuracy > *choice.last_val_accuracy
                                         : best->step != step)) {
      // Better than the last evaluation's weights: an earlier epoch's, or the average of the last
      // epochs' (written at the last step itself). Without that evaluation, another step's.
      weights_step = best->step;
      best_weights = true;
    }
    // Not better than the last weights (or unreadable, maybe half loaded): back to those now.
    if (!best_weights) final_weights->restoreInto(task.model());
  }
  try {
    work(weights_step, best_weights);
  } catch (...) {
    if (best_weights) final_weights->restoreInto(task.model());
    throw;
  }
  if (best_weights) final_weights->restoreInto(task.model());
}

void evaluateWithFinalWeights(Task& task, const FinalTestChoice& choice, TestEvaluation& t,
                              const std::function<void(const std::string&)>& warn) {
  t.samples = task.testSize();
  EvaluationOutcome e;
  const auto said = [&warn](const std::string& text) {
    warn(text + "; the final test uses the last weights");
  };
  withFinalWeights(task, choice, t.step, said, [&](std::int64_t weights_step, bool best) {
    t.weights_step = weights_step;
    t.best_weights = best;
    e = task.evaluate(DataSplit::kTest, 0, FigureSamples::kEvery);
  });
  t.loss = e.loss;
  t.accuracy = e.accuracy;
  t.figures = e.figures;
}

}  // namespace ascope
