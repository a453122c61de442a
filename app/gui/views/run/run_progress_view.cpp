#include "app/gui/views/run/run_progress_view.h"

#include "app/gui/views/common/figures_html.h"

#include <QLabel>
#include <QVBoxLayout>

#include <cmath>

namespace ascope {

RunProgressView::RunProgressView(QWidget* parent) : QWidget(parent) {
  state_ = new QLabel(this);
  state_->setObjectName(QStringLiteral("runState"));
  stats_ = new QLabel(this);
  stats_->setObjectName(QStringLiteral("runStats"));
  stats_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  stats_->setWordWrap(true);
  epoch_ = new QLabel(this);
  epoch_->setWordWrap(true);
  epoch_->setForegroundRole(QPalette::PlaceholderText);
  test_ = new QLabel(this);
  test_->setObjectName(QStringLiteral("runTest"));
  test_->setWordWrap(true);
  test_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  test_->setToolTip(
      tr("Every sample of the held-out split, evaluated once when the run reached its end; the "
         "validation figures above may cover a part of it only (eval_max_samples)."));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(3);
  layout->addWidget(state_);
  layout->addWidget(stats_);
  layout->addWidget(epoch_);
  layout->addWidget(test_);
  reset();
}

QString RunProgressView::clock(double seconds) {
  const long long s = std::llround(std::max(0.0, seconds));
  if (s >= 3600) {
    return QStringLiteral("%1:%2:%3")
        .arg(s / 3600)
        .arg(s / 60 % 60, 2, 10, QLatin1Char('0'))
        .arg(s % 60, 2, 10, QLatin1Char('0'));
  }
  return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

QString RunProgressView::stateName(TrainerState state) {
  switch (state) {
    case TrainerState::kIdle:
      return tr("Ready");
    case TrainerState::kPreparing:
      return tr("Preparing data and model…");
    case TrainerState::kRunning:
      return tr("Training");
    case TrainerState::kPaused:
      return tr("Paused");
    case TrainerState::kStopped:
      return tr("Stopped");
    case TrainerState::kFinished:
      return tr("Finished");
    case TrainerState::kFailed:
      return tr("Failed");
  }
  return {};
}

void RunProgressView::setState(TrainerState state, const QString& reason) {
  state_now_ = state;
  if (last_) showStats();
  QString text = QStringLiteral("<b>%1</b>").arg(stateName(state).toHtmlEscaped());
  if (!reason.isEmpty()) text += QStringLiteral(" — ") + reason.toHtmlEscaped();
  state_->setText(text);
  reason_ = reason;
  Q_EMIT summaryChanged(summary());
}

void RunProgressView::setProgress(const StepMetrics& p, std::int64_t batch_size) {
  last_ = p;
  batch_size_ = std::max<std::int64_t>(1, batch_size);
  showStats();
  Q_EMIT summaryChanged(summary());
}

void RunProgressView::beginRun(const TrainingConfig& config) {
  projection_.emplace();
  projection_->start(config);
  said_timed_ = said_evaluation_ = false;
}

void RunProgressView::addSteps(const std::vector<StepMetrics>& steps, std::int64_t batch_size) {
  if (steps.empty()) return;
  if (projection_) {
    projection_->addSteps(steps);
    if (projection_->isTimed() && !said_timed_) {
      said_timed_ = true;
      Q_EMIT projected(projection_->note());
    }
    if (projection_->evaluationTimed() && !said_evaluation_) {
      said_evaluation_ = true;
      Q_EMIT projected(projection_->note());
    }
  }
  setProgress(steps.back(), batch_size);
}

QString RunProgressView::etaText(const StepMetrics& p, std::int64_t batch_size,
                                 TrainerState state) {
  const double its = p.samples_per_s / static_cast<double>(std::max<std::int64_t>(1, batch_size));
  // From the recent rate, not from the average since the start: time spent paused is not
  // training time, and an ETA that grows while nothing runs reads as broken. None once ended.
  if (state == TrainerState::kPaused) return tr("– (paused)");
  if (!isFinalState(state) && its > 0)
    return clock(static_cast<double>(std::max<std::int64_t>(0, p.total_steps - p.step)) / its);
  return QStringLiteral("–");
}

RunSummary RunProgressView::summary() const {
  RunSummary s;
  s.state = state_now_;
  s.reason = reason_;
  if (last_) {
    s.has_progress = true;
    s.step = last_->step;
    s.total_steps = last_->total_steps;
    s.epoch = last_->epoch;
    s.eta = etaText(*last_, batch_size_, state_now_);
    // Timed on this device, validation passes and the final test included: a range, since a
    // shared machine's speed varies ("about 6–8 min").
    const std::optional<RunTimeProjection::Range> left =
        projection_ ? projection_->rangeLeft() : std::nullopt;
    if (left && state_now_ != TrainerState::kPaused && !isFinalState(state_now_)) {
      s.eta = RunTimeProjection::rangeText(*left);
    }
  }
  return s;
}

void RunProgressView::showStats() {
  const StepMetrics& p = *last_;
  const double its = p.samples_per_s / static_cast<double>(batch_size_);
  const QString eta = summary().eta;
  stats_->setText(tr("epoch %1 · %2 it/s · %3 samples/s · ETA %4<br>loss %5 · accuracy %6 · "
                     "lr %7")
                      .arg(p.epoch)
                      .arg(its, 0, 'f', 1)
                      .arg(p.samples_per_s, 0, 'f', 0)
                      .arg(eta)
                      .arg(p.loss, 0, 'f', 4)
                      .arg(p.accuracy, 0, 'f', 3)
                      .arg(p.lr, 0, 'g', 3));
}

void RunProgressView::setEpoch(const EpochSummary& r, const std::string& task) {
  if (projection_) projection_->addEvaluation(r.step);
  QString text = tr("epoch %1 validation: loss %2 · accuracy %3")
                     .arg(r.epoch)
                     .arg(r.val_loss, 0, 'f', 4)
                     .arg(r.val_accuracy, 0, 'f', 3);
  // The headline figure here, all of them on hover: a translation's five would not fit a line.
  text += figuresHtml(task, r.figures, FigureSelection::kHeadline);
  epoch_->setText(text);
  epoch_->setToolTip(figuresToolTip(task, r.figures));
}

void RunProgressView::setTest(const TestEvaluation& t, const std::string& task) {
  if (t.split == "none") {
    test_->setText(
        tr("<b>No test split</b>: the data has none, so this run has no test figure "
           "(validation is never reused as one)"));
    return;
  }
  // Runs made before separate test splits tested on their validation split: named so.
  QString text = (t.split == "test" ? tr("<b>Test</b>: accuracy %1 · loss %2")
                                    : tr("<b>Validation split (old run, not a test)</b>: "
                                         "accuracy %1 · loss %2"))
                     .arg(t.accuracy, 0, 'f', 3)
                     .arg(t.loss, 0, 'f', 4);
  text += figuresHtml(task, t.figures, FigureSelection::kHeadline);
  test_->setToolTip(figuresToolTip(task, t.figures));
  // A run read back from an older metrics.csv has no count.
  if (t.samples > 0) text += tr(" · %1 samples").arg(t.samples);
  text += t.best_weights ? tr(" · best weights (step %1)").arg(t.weights_step)
                         : tr(" · last weights (step %1)").arg(t.weights_step);
  if (!t.origin.empty()) {
    text += QStringLiteral("<br><small>%1</small>")
                .arg(QString::fromStdString(t.origin).toHtmlEscaped());
  }
  test_->setText(text);
}

QString RunProgressView::testText() const {
  return test_->text();
}

void RunProgressView::reset() {
  last_.reset();
  projection_.reset();
  stats_->setText(tr("epoch – · – it/s · – samples/s · ETA –<br>loss – · accuracy – · lr –"));
  epoch_->clear();
  test_->clear();
  setState(TrainerState::kIdle);
}

QString RunProgressView::statsText() const {
  return stats_->text();
}

}  // namespace ascope
