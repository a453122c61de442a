#pragma once
// Where a run stands: state, a progress bar over all steps, and epoch, step, it/s, samples/s, ETA,
// loss and accuracy of the newest step; the newest validation results; once the run has ended,
// its test figure on the whole test split.
#include <QWidget>

#include <optional>

#include "engine/vocabulary/events.h"

class QLabel;
class QProgressBar;

namespace ascope {

class RunProgressView : public QWidget {
  Q_OBJECT

 public:
  explicit RunProgressView(QWidget* parent = nullptr);

  void setState(TrainerState state, const QString& reason = {});
  void setProgress(const StepMetrics& progress, std::int64_t batch_size);
  /// Validation results of the newest epoch (shown under the step figures).
  void setEpoch(const EpochSummary& report);
  /// The run's final test on the whole test split, or "no test split" (under the validation
  /// results).
  void setTest(const TestEvaluation& test);
  void reset();

  QProgressBar* bar() const { return bar_; }
  QString statsText() const;
  /// "" until setTest.
  QString testText() const;

  /// "1:02", "12:03:07"
  static QString clock(double seconds);
  static QString stateName(TrainerState state);

 private:
  /// The step figures of `last_`, with the ETA the state allows.
  void showStats();

  std::optional<StepMetrics> last_;
  std::int64_t batch_size_ = 1;
  TrainerState state_now_ = TrainerState::kIdle;
  QLabel* state_ = nullptr;
  QProgressBar* bar_ = nullptr;
  QLabel* stats_ = nullptr;
  QLabel* epoch_ = nullptr;
  QLabel* test_ = nullptr;
};

}  // namespace ascope
