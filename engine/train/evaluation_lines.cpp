#include "engine/train/evaluation_lines.h"

#include <fmt/format.h>

#include "engine/vocabulary/figures_text.h"

namespace ascope {

EpochSummary epochSummary(int epoch, int64_t step, const TrainingFigureSums& since_last,
                          const EvaluationOutcome& validation, double lr) {
  EpochSummary s;
  s.epoch = epoch;
  s.step = step;
  s.train_loss = since_last.meanLoss();
  s.train_accuracy = since_last.accuracy();
  s.val_loss = validation.loss;
  s.val_accuracy = validation.accuracy;
  s.lr = lr;
  s.figures = validation.figures;
  return s;
}

std::string epochLine(const EpochSummary& s, const std::vector<MetricInfo>& metrics,
                      double seconds) {
  std::string line =
      fmt::format("epoch {} step {}: train loss {:.4f} acc {:.3f} | val loss {:.4f} acc {:.3f}",
                  s.epoch, s.step, s.train_loss, s.train_accuracy, s.val_loss, s.val_accuracy);
  if (!s.figures.empty()) line += " " + figuresText(s.figures, metrics);
  return line + fmt::format(" ({:.2f} s)", seconds);
}

std::string averageLine(int64_t steps, int64_t last_step, const EvaluationOutcome& validation,
                        double best_accuracy, bool becomes_best,
                        const std::vector<MetricInfo>& metrics, double seconds) {
  std::string line = fmt::format(
      "weights averaged over the last {} steps (steps {}–{}): val loss {:.4f} acc {:.3f}", steps,
      last_step - steps + 1, last_step, validation.loss, validation.accuracy);
  if (!validation.figures.empty()) line += " " + figuresText(validation.figures, metrics);
  line += fmt::format(" (best epoch's acc {:.3f}): ", best_accuracy);
  line += becomes_best ? "the average is best.pt from here" : "best.pt stays the best epoch's";
  return line + fmt::format(" ({:.2f} s)", seconds);
}

std::string testLine(const TestEvaluation& t, const std::vector<MetricInfo>& metrics) {
  std::string line =
      fmt::format("{} ({} samples: {}; weights of step {} ({})): loss {:.4f} acc {:.3f}",
                  t.split == "test" ? "test" : "final figure on the validation split", t.samples,
                  t.origin, t.weights_step, t.best_weights ? "best" : "last", t.loss, t.accuracy);
  if (!t.figures.empty()) line += " " + figuresText(t.figures, metrics);
  return line + fmt::format(" ({:.2f} s)", t.seconds);
}

}  // namespace ascope
