#pragma once
// Before a run starts: how long will it take on this device? A run estimated above the threshold
// (the seed preset on a CPU: hours) is started only when the person says so. The estimate
// (engine/performance/run_time_estimate.h, which may read a pretrained model's config.json) is
// worked out on a pool thread; the question is asked only in an interactive window, never in tests
// or scripted runs, which start at once.
#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>

#include "engine/performance/run_time_estimate.h"
#include "engine/vocabulary/expected.h"
#include "engine/vocabulary/training_config.h"

class QWidget;

namespace ascope {

class LongRunCheck : public QObject {
  Q_OBJECT

 public:
  /// Asks a person `question`; true to start anyway.
  using Asker = std::function<bool(const QString& question)>;
  /// Runs estimated above this are asked about: half an hour.
  static constexpr double kDefaultThresholdSeconds = 30 * 60;

  /// `dialog_parent` is the question box's parent.
  explicit LongRunCheck(QWidget* dialog_parent, QObject* parent = nullptr);
  ~LongRunCheck() override;

  void setInteractive(bool on) { interactive_ = on; }
  /// Replaces the question box (tests).
  void setAsker(Asker asker) { asker_ = std::move(asker); }
  void setThresholdSeconds(double seconds) { threshold_s_ = seconds; }

  /// Estimates `config`; accepted() follows when it may start (at once when not interactive),
  /// declined() when the person said no. A check while one is being estimated is ignored.
  void check(const TrainingConfig& config, bool step_only);
  bool isChecking() const { return watcher_.isRunning(); }

  /// Whether to ask: interactive, an estimate known, and longer than `threshold_s`.
  static bool shouldAsk(bool interactive, const std::optional<RunTimeEstimate>& estimate,
                        double threshold_s);
  /// "Training with the seed preset on this CPU (2 cores) will take about 10 h: …"
  static QString question(const TrainingConfig& config, const RunTimeEstimate& estimate, int cpus);

 Q_SIGNALS:
  void accepted(const TrainingConfig& config, bool step_only);
  void declined(const QString& message);

 private:
  struct Pending {
    TrainingConfig config;
    bool step_only = false;
    int cpus = 1;
  };
  void onEstimated();

  QWidget* dialog_parent_;
  bool interactive_ = false;
  double threshold_s_ = kDefaultThresholdSeconds;
  Asker asker_;
  Pending pending_;
  QFutureWatcher<Expected<std::optional<RunTimeEstimate>>> watcher_;
};

}  // namespace ascope
