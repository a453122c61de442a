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

std::string testLine(const TestEvaluation& t, const std::vector<MetricInfo>& metrics) {
  std::string line =
      fmt::format("{} ({} samples: {}; weights of step {} ({})): loss {:.4f} acc {:.3f}",
                  t.split == "test" ? "test" : "final figure on the validation split", t.samples,
                  t.origin, t.weights_step, t.best_weights ? "best" : "last", t.loss, t.accuracy);
  if (!t.figures.empty()) line += " " + figuresText(t.figures, metrics);
  return line + fmt::format(" ({:.2f} s)", t.seconds);
}

}  // namespace ascope
