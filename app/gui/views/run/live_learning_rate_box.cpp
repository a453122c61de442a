#include "app/gui/views/run/live_learning_rate_box.h"

#include <QHBoxLayout>
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
  caption_ = new QLabel(tr("Live learning rate"), this);
  edit_ = new QLineEdit(this);
  edit_->setObjectName(QStringLiteral("liveLearningRate"));
  edit_->setPlaceholderText(tr("e.g. 5e-4"));
  // Room for "0.00025" at any font size: the dock is narrow at 1280 × 720.
  edit_->setMinimumWidth(edit_->fontMetrics().horizontalAdvance(QStringLiteral("0.000025")) + 16);
  base_tool_tip_ =
      tr("A new learning rate for the running or paused run: it replaces the "
         "schedule from the next batch to the end, is logged, saved in the run "
         "folder (learning_rates.csv) and marked on the curves.");
  edit_->setToolTip(base_tool_tip_);
  set_ = new QPushButton(tr("Set"), this);
  set_->setObjectName(QStringLiteral("setLearningRate"));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);
  layout->addWidget(caption_);
  layout->addWidget(edit_, 1);
  layout->addWidget(set_);

  connect(set_, &QPushButton::clicked, this, &LiveLearningRateBox::send);
  connect(edit_, &QLineEdit::returnPressed, this, &LiveLearningRateBox::send);
  connect(edit_, &QLineEdit::textChanged, this, [this] { edit_->setStyleSheet({}); });
  connect(run_, &CurrentRun::stateChanged, this,
          [this](TrainerState state, const QString&) { follow(state); });
  connect(run_, &CurrentRun::runChanged, this, [this] {
    edit_->clear();
    edit_->setPlaceholderText(tr("e.g. 5e-4"));
    status_.clear();
    edit_->setToolTip(base_tool_tip_);
    follow(run_->state());
  });
  follow(run_->state());
}

void LiveLearningRateBox::setCompact(bool compact) {
  caption_->setText(compact ? tr("lr") : tr("Live learning rate"));
  caption_->setToolTip(compact ? tr("Live learning rate") : QString());
}

void LiveLearningRateBox::say(const QString& text) {
  status_ = text;
  edit_->setToolTip(text + QStringLiteral("\n\n") + base_tool_tip_);
  Q_EMIT statusChanged(text);
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
  if (!lr) {
    edit_->setStyleSheet(QStringLiteral("color: #d0342c"));
    say(tr("\"%1\" is not a learning rate: a number in (0, %2)")
            .arg(edit_->text().trimmed(), rateText(kMaxLearningRate)));
    return;
  }
  say(run_->state() == TrainerState::kPaused
          ? tr("%1 sent: it applies from the next batch (Resume or Step).").arg(rateText(*lr))
          : tr("%1 sent: it applies from the next batch.").arg(rateText(*lr)));
  Q_EMIT learningRateRequested(*lr);
  // Sent: the field lets go of the keyboard, so the next Space pauses instead of typing into it.
  edit_->clearFocus();
}

void LiveLearningRateBox::applied(const LearningRateChange& change) {
  say(tr("Learning rate %1 since step %2 (was %3).")
          .arg(rateText(change.lr))
          .arg(change.step)
          .arg(rateText(change.previous_lr)));
}

void LiveLearningRateBox::showCurrentRate(double lr) {
  if (!run_->isLive() || !(lr > 0)) return;
  const QString text = tr("now %1").arg(rateText(lr));
  if (edit_->placeholderText() != text) edit_->setPlaceholderText(text);
}

void LiveLearningRateBox::follow(TrainerState state) {
  const bool live = run_->isLive() && run_->isBusy();
  edit_->setEnabled(live);
  set_->setEnabled(live);
  if (!live && !isFinalState(state)) edit_->clear();
}

}  // namespace ascope
