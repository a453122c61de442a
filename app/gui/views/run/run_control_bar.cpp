#include "app/gui/views/run/run_control_bar.h"

#include <QAction>
#include <QEvent>
#include <QGridLayout>
#include <QResizeEvent>
#include <QToolButton>

#include <algorithm>

#include "app/gui/views/run/live_learning_rate_box.h"
#include "app/gui/views/run/run_progress_strip.h"

namespace ascope {

RunControlBar::RunControlBar(const CurrentRun* run, const QList<QAction*>& commands,
                             QWidget* parent)
    : QWidget(parent) {
  setObjectName(QStringLiteral("runControlBar"));
  for (QAction* action : commands) {
    auto* button = new QToolButton(this);
    button->setDefaultAction(action);
    button->setObjectName(action->objectName() + QStringLiteral("Button"));
    buttons_ << button;
  }
  progress_ = new RunProgressStrip(this);
  learning_rate_ = new LiveLearningRateBox(run, this);
  layout_ = new QGridLayout(this);
  layout_->setContentsMargins(4, 2, 4, 2);
  layout_->setHorizontalSpacing(6);
  layout_->setVerticalSpacing(2);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
  arrange(0);
}

QToolButton* RunControlBar::button(const QAction* action) const {
  for (QToolButton* b : buttons_) {
    if (b->defaultAction() == action) return b;
  }
  return nullptr;
}

void RunControlBar::arrange(int compactness) {
  if (compactness == compactness_) return;
  compactness_ = compactness;
  for (QToolButton* b : buttons_) {
    b->setToolButtonStyle(compactness == 0 ? Qt::ToolButtonTextBesideIcon : Qt::ToolButtonIconOnly);
  }
  learning_rate_->setCompact(compactness >= 1);
  while (QLayoutItem* item = layout_->takeAt(0)) delete item;  // the widgets stay
  for (int c = 0; c < layout_->columnCount(); ++c) layout_->setColumnStretch(c, 0);
  int column = 0;
  for (QToolButton* b : buttons_) layout_->addWidget(b, 0, column++);
  layout_->addWidget(progress_, 0, column);
  layout_->setColumnStretch(column++, 1);
  if (compactness < 2) {
    layout_->addWidget(learning_rate_, 0, column);
  } else {
    layout_->addWidget(learning_rate_, 1, 0, 1, column);
  }
  learning_rate_->layout()->invalidate();
  layout_->invalidate();
  updateGeometry();
}

int RunControlBar::neededWidth(int compactness) const {
  const QMargins m = layout_->contentsMargins();
  int width = m.left() + m.right();
  for (const QToolButton* b : buttons_) {
    width += compactness == 0 ? b->sizeHint().width() : b->iconSize().width() + 10;
    width += layout_->horizontalSpacing();
  }
  width += compactness == 0 ? progress_->sizeHint().width() : progress_->minimumSizeHint().width();
  if (compactness < 2) {
    width += layout_->horizontalSpacing() + learning_rate_->sizeHint().width();
  }
  return width;
}

void RunControlBar::fitTo(int width) {
  // Measured at the full arrangement: a button's words count only while they are shown.
  arrange(0);
  int compactness = 0;
  while (compactness < 2 && neededWidth(compactness) > width) ++compactness;
  arrange(compactness);
}

QSize RunControlBar::minimumSizeHint() const {
  // The most compact arrangement: a toolbar hides what does not fit its minimum in an overflow
  // menu, which is exactly what the controls must never be in.
  const QMargins m = layout_->contentsMargins();
  int width = m.left() + m.right();
  int row = 0;
  for (const QToolButton* b : buttons_) {
    width += b->iconSize().width() + 10 + layout_->horizontalSpacing();
    row = std::max(row, b->minimumSizeHint().height());
  }
  width += progress_->minimumSizeHint().width();
  row = std::max(row, progress_->minimumSizeHint().height());
  const int height = m.top() + m.bottom() + row + layout_->verticalSpacing() +
                     learning_rate_->minimumSizeHint().height();
  return {std::max(width, learning_rate_->minimumSizeHint().width()), height};
}

void RunControlBar::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  if (event->size().width() != event->oldSize().width()) fitTo(event->size().width());
}

void RunControlBar::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  // A zoomed font changes every width; the arrangement is chosen again for the same room.
  if (event->type() == QEvent::FontChange) {
    compactness_ = -1;
    fitTo(width());
  }
}

}  // namespace ascope
