#include "app/gui/views/run/run_progress_strip.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QResizeEvent>

#include <algorithm>

namespace ascope {
namespace {

/// The badge's colour: a state a lecturer must notice (paused, failed) stands out from afar.
QString badgeColor(TrainerState state) {
  switch (state) {
    case TrainerState::kRunning:
    case TrainerState::kPreparing:
      return QStringLiteral("#2e7d32");
    case TrainerState::kPaused:
      return QStringLiteral("#b26a00");
    case TrainerState::kFailed:
      return QStringLiteral("#c62828");
    case TrainerState::kFinished:
    case TrainerState::kStopped:
      return QStringLiteral("#1565c0");
    case TrainerState::kIdle:
      break;
  }
  return {};
}

}  // namespace

RunProgressStrip::RunProgressStrip(QWidget* parent) : QWidget(parent) {
  badge_ = new QLabel(this);
  badge_->setObjectName(QStringLiteral("runStateBadge"));
  badge_->setAlignment(Qt::AlignCenter);
  badge_->setMargin(2);
  bar_ = new QProgressBar(this);
  bar_->setObjectName(QStringLiteral("runProgress"));
  bar_->setTextVisible(true);
  // Room for "100 % · step 12345 / 12345 · ETA 12:03:07" is more than a narrow window has; the
  // bar takes what is left and the figures stay in its tooltip and the status bar.
  bar_->setMinimumWidth(bar_->fontMetrics().horizontalAdvance(QStringLiteral("100 % · ETA 0:00")));
  bar_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(6);
  layout->addWidget(badge_);
  layout->addWidget(bar_, 1);
  setSummary(RunSummary{});
}

void RunProgressStrip::setSummary(const RunSummary& s) {
  summary_ = s;
  badge_->setText(s.stateText());
  const QString color = badgeColor(s.state);
  badge_->setStyleSheet(color.isEmpty() ? QString()
                                        : QStringLiteral("QLabel { color: white; background: %1; "
                                                         "border-radius: 3px; padding: 0 6px; }")
                                              .arg(color));
  badge_->setToolTip(s.reason.isEmpty() ? s.statusLine()
                                        : s.statusLine() + QStringLiteral("\n") + s.reason);
  if (s.has_progress) {
    const int total = static_cast<int>(std::clamp<std::int64_t>(s.total_steps, 1, 1 << 30));
    bar_->setRange(0, total);
    bar_->setValue(static_cast<int>(std::clamp<std::int64_t>(s.step, 0, total)));
  } else if (s.state == TrainerState::kPreparing) {
    bar_->setRange(0, 0);  // busy until the first step arrives
  } else {
    bar_->setRange(0, 1);
    bar_->setValue(0);
  }
  fitBarText();
  bar_->setToolTip(s.statusLine());
}

QSize RunProgressStrip::sizeHint() const {
  const QSize minimum = minimumSizeHint();
  const int text = bar_->fontMetrics().horizontalAdvance(
      QStringLiteral("100 % · step 00000 / 00000 · ETA 0:00:00"));
  return {badge_->sizeHint().width() + layout()->spacing() + text + 16, minimum.height()};
}

void RunProgressStrip::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  fitBarText();
}

void RunProgressStrip::fitBarText() {
  // A progress bar elides nothing itself: a text wider than the bar is cut at both ends.
  QString format = summary_.barFormat();
  const int room = bar_->contentsRect().width() - 8;
  if (summary_.has_progress && bar_->fontMetrics().horizontalAdvance(format) > room) {
    format = isFinalState(summary_.state) || summary_.state == TrainerState::kIdle
                 ? QStringLiteral("%p %")
                 : QStringLiteral("%p % · ETA ") + summary_.eta;
  }
  bar_->setFormat(format);
}

}  // namespace ascope
