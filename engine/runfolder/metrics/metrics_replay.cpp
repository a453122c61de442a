#include "engine/runfolder/metrics/metrics_replay.h"

namespace ascope {
namespace {

TestEvaluation testOf(const MetricsRow& row) {
  TestEvaluation t;
  t.epoch = row.epoch;
  t.step = row.step;
  t.weights_step = row.weights_step.value_or(row.step);
  t.best_weights = t.weights_step != t.step;
  t.samples = row.samples.value_or(0);
  t.loss = row.loss;
  t.accuracy = row.accuracy;
  t.figures = row.figures;
  return t;
}

}  // namespace

void MetricsReplay::add(const MetricsRow& row, std::vector<StepMetrics>& steps,
                        std::vector<EpochSummary>& epochs, std::optional<TestEvaluation>& test) {
  if (row.split == "train") {
    StepMetrics m;
    m.step = m.total_steps = row.step;
    m.epoch = row.epoch;
    m.loss = row.loss;
    m.accuracy = row.accuracy;
    m.lr = row.lr;
    m.samples_per_s = row.samples_per_s;
    steps.push_back(m);
    ++epoch_train_rows_;
    loss_sum_ += row.loss;
    accuracy_sum_ += row.accuracy;
    return;
  }
  if (row.split == "test") {
    // A run extended after it had finished keeps the first end's row too; the newest wins.
    test = testOf(row);
    return;
  }
  EpochSummary e;
  e.epoch = row.epoch;
  e.step = row.step;
  e.train_loss = epoch_train_rows_ > 0 ? loss_sum_ / epoch_train_rows_ : 0;
  e.train_accuracy = epoch_train_rows_ > 0 ? accuracy_sum_ / epoch_train_rows_ : 0;
  e.val_loss = row.loss;
  e.val_accuracy = row.accuracy;
  e.figures = row.figures;
  epochs.push_back(e);
  epoch_train_rows_ = 0;
  loss_sum_ = accuracy_sum_ = 0;
}

}  // namespace ascope
