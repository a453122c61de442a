#pragma once
// Where a run stands, in full, in the Run dock: state (with its reason), epoch, step, it/s,
// samples/s, ETA, loss and accuracy of the newest step; the newest validation results; once the
// run has ended, its test figure on the whole test split. The owner of these figures: what the
// run toolbar's progress bar and the status bar show is its summary (summaryChanged).
#include <QWidget>

#include <optional>

#include "app/gui/views/run/run_summary.h"
#include "app/gui/views/run/run_time_projection.h"
#include "engine/vocabulary/events.h"

class QLabel;

namespace ascope {

class RunProgressView : public QWidget {
  Q_OBJECT

 public:
  explicit RunProgressView(QWidget* parent = nullptr);

  void setState(TrainerState state, const QString& reason = {});
  /// A run trained here starts: its time is projected from its own steps (RunTimeProjection).
  void beginRun(const TrainingConfig& config);
  /// Every step of a drain (the projection times them), then setProgress with the newest.
  void addSteps(const std::vector<StepMetrics>& steps, std::int64_t batch_size);
  void setProgress(const StepMetrics& progress, std::int64_t batch_size);
  /// Validation results of the newest epoch (shown under the step figures).
  void setEpoch(const EpochSummary& report, const std::string& task);
  /// The run's final test on the whole test split, or "no test split" (under the validation
  /// results).
  void setTest(const TestEvaluation& test, const std::string& task);
  void reset();

  /// State, step, total and ETA in a few words (the toolbar's bar, the status bar).
  RunSummary summary() const;
  /// The whole run's time as projected now from its own steps; nullopt before it is timed.
  std::optional<double> projectedTotalSeconds() const {
    return projection_ ? projection_->totalSeconds() : std::nullopt;
  }
  /// Seconds still to go and their range as the toolbar states them; nullopt before timed.
  std::optional<double> projectedSecondsLeft() const {
    return projection_ ? projection_->secondsLeft() : std::nullopt;
  }
  std::optional<RunTimeProjection::Range> projectedRangeLeft() const {
    return projection_ ? projection_->rangeLeft() : std::nullopt;
  }
  QString statsText() const;
  /// "" until setTest.
  QString testText() const;

  /// "1:02", "12:03:07"
  static QString clock(double seconds);
  static QString stateName(TrainerState state);
  /// Time left at the recent rate: "1:02"; "– (paused)" while paused; "–" once ended or unknown.
  static QString etaText(const StepMetrics& progress, std::int64_t batch_size, TrainerState state);

 Q_SIGNALS:
  void summaryChanged(const RunSummary& summary);
  /// The run's time was projected anew from its first steps, or its first validation pass: a
  /// line for the log.
  void projected(const QString& note);

 private:
  /// The step figures of `last_`, with the ETA the state allows.
  void showStats();

  std::optional<StepMetrics> last_;
  std::optional<RunTimeProjection> projection_;  ///< a run trained here
  bool said_timed_ = false;
  bool said_evaluation_ = false;
  std::int64_t batch_size_ = 1;
  TrainerState state_now_ = TrainerState::kIdle;
  QString reason_;
  QLabel* state_ = nullptr;
  QLabel* stats_ = nullptr;
  QLabel* epoch_ = nullptr;
  QLabel* test_ = nullptr;
};

}  // namespace ascope
