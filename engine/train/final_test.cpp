#include "engine/train/final_test.h"

#include <filesystem>
#include <system_error>

#include "engine/train/checkpoint.h"
#include "engine/train/model_weights_copy.h"

namespace ascope {

void evaluateWithFinalWeights(Task& task, const FinalTestChoice& choice, TestEvaluation& t,
                              const std::function<void(const std::string&)>& warn) {
  t.weights_step = t.step;
  t.samples = task.testSize();
  std::error_code no_file;
  std::optional<ModelWeightsCopy> final_weights;
  if (choice.final_weights == "best" && std::filesystem::exists(choice.best_path, no_file)) {
    final_weights.emplace(task.model());
    // Model weights only: the optimizer and the progress stay those of the run's end (last.pt).
    const Expected<TrainingProgress> best = loadCheckpoint(choice.best_path, task.model(), nullptr);
    if (!best.ok()) {
      warn(best.error() + "; the final test uses the last weights");
    } else if (best->step != t.step &&
               (!choice.last_val_accuracy || best->best_val_accuracy > *choice.last_val_accuracy)) {
      t.weights_step = best->step;
      t.best_weights = true;
    }
    // Not better than the last weights (or unreadable, maybe half loaded): back to those now.
    if (!t.best_weights) final_weights->restoreInto(task.model());
  }
  EvaluationOutcome e;
  try {
    e = task.evaluate(DataSplit::kTest, 0, FigureSamples::kEvery);
  } catch (...) {
    if (t.best_weights) final_weights->restoreInto(task.model());
    throw;
  }
  if (t.best_weights) final_weights->restoreInto(task.model());
  t.loss = e.loss;
  t.accuracy = e.accuracy;
  t.figures = e.figures;
}

}  // namespace ascope
