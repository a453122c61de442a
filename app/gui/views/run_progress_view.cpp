#include "app/gui/views/run_progress_view.h"

#include <QLabel>
#include <QProgressBar>
#include <QVBoxLayout>

#include <cmath>

namespace ascope {

RunProgressView::RunProgressView(QWidget* parent) : QWidget(parent) {
  state_ = new QLabel(this);
  state_->setObjectName(QStringLiteral("runState"));
  bar_ = new QProgressBar(this);
  bar_->setObjectName(QStringLiteral("runProgress"));
  bar_->setTextVisible(true);
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
  layout->addWidget(bar_);
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
  if (state == TrainerState::kPreparing) bar_->setRange(0, 0);  // busy indicator until steps arrive
  if (isFinalState(state) && bar_->maximum() == 0) bar_->setRange(0, 1);
}

void RunProgressView::setProgress(const StepMetrics& p, std::int64_t batch_size) {
  const int total = static_cast<int>(std::max<std::int64_t>(1, p.total_steps));
  bar_->setRange(0, total);
  bar_->setValue(static_cast<int>(std::min<std::int64_t>(p.step, total)));
  bar_->setFormat(QStringLiteral("%p%  ·  step %1 / %2").arg(p.step).arg(p.total_steps));
  last_ = p;
  batch_size_ = std::max<std::int64_t>(1, batch_size);
  showStats();
}

void RunProgressView::showStats() {
  const StepMetrics& p = *last_;
  const double its = p.samples_per_s / static_cast<double>(batch_size_);
  // From the recent rate, not from the average since the start: time spent paused is not
  // training time, and an ETA that grows while nothing runs reads as broken. None once ended.
  QString eta = QStringLiteral("–");
  if (state_now_ == TrainerState::kPaused) {
    eta = tr("– (paused)");
  } else if (!isFinalState(state_now_) && its > 0) {
    eta = clock(static_cast<double>(std::max<std::int64_t>(0, p.total_steps - p.step)) / its);
  }
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

void RunProgressView::setEpoch(const EpochSummary& r) {
  QString text = tr("epoch %1 validation: loss %2 · accuracy %3")
                     .arg(r.epoch)
                     .arg(r.val_loss, 0, 'f', 4)
                     .arg(r.val_accuracy, 0, 'f', 3);
  if (r.bleu) text += tr(" · BLEU %1").arg(*r.bleu, 0, 'f', 1);
  epoch_->setText(text);
}

void RunProgressView::setTest(const TestEvaluation& t) {
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
  if (t.bleu) text += tr(" · BLEU %1").arg(*t.bleu, 0, 'f', 1);
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
  bar_->setRange(0, 1);
  bar_->setValue(0);
  bar_->setFormat(tr("no run yet"));
  stats_->setText(tr("epoch – · – it/s · – samples/s · ETA –<br>loss – · accuracy – · lr –"));
  epoch_->clear();
  test_->clear();
  setState(TrainerState::kIdle);
}

QString RunProgressView::statsText() const {
  return stats_->text();
}

}  // namespace ascope
