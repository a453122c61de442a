#include "app/gui/views/live_learning_rate_box.h"

#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

#include <cmath>

#include "app/gui/bridge/current_run.h"
#include "engine/vocabulary/learning_rate_bounds.h"

namespace ascope {
namespace {

QString rateText(double lr) {
  return QString::number(lr, 'g', 4);
}

}  // namespace

LiveLearningRateBox::LiveLearningRateBox(const CurrentRun* run, QWidget* parent)
    : QWidget(parent), run_(run) {
  auto* caption = new QLabel(tr("Live learning rate"), this);
  edit_ = new QLineEdit(this);
  edit_->setObjectName(QStringLiteral("liveLearningRate"));
  edit_->setPlaceholderText(tr("e.g. 5e-4"));
  // Room for "0.00025" at any font size: the dock is narrow at 1280 × 720.
  edit_->setMinimumWidth(edit_->fontMetrics().horizontalAdvance(QStringLiteral("0.000025")) + 16);
  edit_->setToolTip(
      tr("A new learning rate for the running or paused run: it replaces the "
         "schedule from the next batch to the end, is logged, saved in the run "
         "folder (learning_rates.csv) and marked on the curves."));
  set_ = new QPushButton(tr("Set"), this);
  set_->setObjectName(QStringLiteral("setLearningRate"));
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("liveLearningRateStatus"));
  status_->setWordWrap(true);
  status_->setTextFormat(Qt::PlainText);
  auto* layout = new QGridLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setHorizontalSpacing(6);
  layout->setVerticalSpacing(2);
  layout->addWidget(caption, 0, 0);
  layout->addWidget(edit_, 0, 1);
  layout->addWidget(set_, 0, 2);
  layout->addWidget(status_, 1, 0, 1, 3);
  layout->setColumnStretch(1, 1);
  status_->hide();

  connect(set_, &QPushButton::clicked, this, &LiveLearningRateBox::send);
  connect(edit_, &QLineEdit::returnPressed, this, &LiveLearningRateBox::send);
  connect(edit_, &QLineEdit::textChanged, this, [this] { edit_->setStyleSheet({}); });
  connect(run_, &CurrentRun::stateChanged, this,
          [this](TrainerState state, const QString&) { follow(state); });
  connect(run_, &CurrentRun::runChanged, this, [this] {
    edit_->clear();
    status_->clear();
    status_->hide();
    follow(run_->state());
  });
  follow(run_->state());
}

std::optional<double> LiveLearningRateBox::parseRate(const QString& text) {
  bool ok = false;
  const double value = text.trimmed().toDouble(&ok);
  if (!ok || !isAcceptedLearningRate(value)) return std::nullopt;
  return value;
}

void LiveLearningRateBox::send() {
  if (!run_->isLive() || !run_->isBusy()) return;
  const std::optional<double> lr = parseRate(edit_->text());
  status_->show();
  if (!lr) {
    edit_->setStyleSheet(QStringLiteral("color: #d0342c"));
    status_->setText(tr("⚠ \"%1\" is not a learning rate: a number in (0, %2)")
                         .arg(edit_->text().trimmed(), rateText(kMaxLearningRate)));
    return;
  }
  status_->setText(
      run_->state() == TrainerState::kPaused
          ? tr("%1 sent: it applies from the next batch (Resume or Step).").arg(rateText(*lr))
          : tr("%1 sent: it applies from the next batch.").arg(rateText(*lr)));
  Q_EMIT learningRateRequested(*lr);
}

void LiveLearningRateBox::applied(const LearningRateChange& change) {
  status_->show();
  status_->setText(tr("%1 since step %2 (was %3).")
                       .arg(rateText(change.lr))
                       .arg(change.step)
                       .arg(rateText(change.previous_lr)));
}

void LiveLearningRateBox::follow(TrainerState state) {
  const bool live = run_->isLive() && run_->isBusy();
  edit_->setEnabled(live);
  set_->setEnabled(live);
  if (!live && !isFinalState(state)) edit_->clear();
}

}  // namespace ascope
