#include "app/gui/window/run/long_run_check.h"

#include <spdlog/spdlog.h>
#include <QMessageBox>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

namespace ascope {

LongRunCheck::LongRunCheck(QWidget* dialog_parent, QObject* parent)
    : QObject(parent), dialog_parent_(dialog_parent) {
  asker_ = [this](const QString& question) {
    return QMessageBox::question(dialog_parent_, tr("A long run"), question,
                                 QMessageBox::Yes | QMessageBox::No,
                                 QMessageBox::No) == QMessageBox::Yes;
  };
  connect(&watcher_, &QFutureWatcher<Expected<std::optional<RunTimeEstimate>>>::finished, this,
          &LongRunCheck::onEstimated);
}

LongRunCheck::~LongRunCheck() {
  watcher_.waitForFinished();
}

void LongRunCheck::check(const TrainingConfig& config, bool step_only) {
  if (!interactive_) {
    Q_EMIT accepted(config, step_only);
    return;
  }
  if (watcher_.isRunning()) return;  // Start pressed again while the first is being estimated
  const int cpus = config.threads > 0 ? config.threads : std::max(1, QThread::idealThreadCount());
  pending_ = {config, step_only, cpus};
  watcher_.setFuture(QtConcurrent::run([config, cpus] { return estimateRunTime(config, cpus); }));
}

void LongRunCheck::onEstimated() {
  const Expected<std::optional<RunTimeEstimate>> result = watcher_.result();
  const Pending pending = pending_;
  std::optional<RunTimeEstimate> estimate;
  if (result.ok()) {
    estimate = *result;
  } else {
    // The run's own preparation reports a bad config better; the estimate just cannot warn.
    spdlog::warn("no time estimate: {}", result.error());
  }
  if (estimate) {
    // Only whether to ask before a very long run: the figure shown during the run is timed on
    // this device from the run's first steps (RunTimeProjection).
    spdlog::info(
        "rough size of the run before it starts: {} for {} steps of {:.3g} GFLOP at an "
        "assumed {:.0f} GFLOP/s; the run's own first steps will be timed for its ETA",
        durationText(estimate->seconds), estimate->steps, estimate->flops_per_step / 1e9,
        estimate->device_gflops);
  }
  if (shouldAsk(interactive_, estimate, threshold_s_) &&
      !asker_(question(pending.config, *estimate, pending.cpus))) {
    Q_EMIT declined(tr("Not started: estimated %1.")
                        .arg(QString::fromStdString(durationText(estimate->seconds))));
    return;
  }
  Q_EMIT accepted(pending.config, pending.step_only);
}

bool LongRunCheck::shouldAsk(bool interactive, const std::optional<RunTimeEstimate>& estimate,
                             double threshold_s) {
  return interactive && estimate && estimate->seconds > threshold_s;
}

QString LongRunCheck::question(const TrainingConfig& config, const RunTimeEstimate& estimate,
                               int cpus) {
  QString device = config.device == "cuda" ? tr("the GPU") : tr("this CPU (%1 cores)").arg(cpus);
  if (!estimate.device.empty())
    device += QStringLiteral(" — ") + QString::fromStdString(estimate.device);
  const QString model = config.pretrained.empty()
                            ? QString()
                            : tr(" fine-tuning %1").arg(QString::fromStdString(config.pretrained));
  return tr("Training with the %1 preset%2 on %3 will take %4 (%5 steps of %6 GFLOP each at an "
            "assumed %7 GFLOP/s).\n\nStart it anyway? A smaller preset (laptop, tiny) or fewer "
            "epochs or steps finish sooner.")
      .arg(QString::fromStdString(config.preset), model, device,
           QString::fromStdString(durationText(estimate.seconds)))
      .arg(estimate.steps)
      .arg(estimate.flops_per_step / 1e9, 0, 'g', 3)
      .arg(estimate.device_gflops, 0, 'f', 0);
}

}  // namespace ascope
