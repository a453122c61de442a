#include "app/gui/window/lesson/lesson_bar.h"

#include <QLabel>
#include <QToolButton>

#include "app/gui/window/lesson/lesson_player.h"

namespace ascope {

LessonBar::LessonBar(LessonPlayer* player, QWidget* parent)
    : QToolBar(tr("Lesson"), parent), player_(player) {
  setObjectName(QStringLiteral("lessonBar"));
  setMovable(false);
  previous_ = new QToolButton(this);
  previous_->setText(tr("◀ Previous"));
  previous_->setToolTip(tr("The moment before (Page Up)"));
  next_ = new QToolButton(this);
  next_->setText(tr("Next ▶"));
  next_->setToolTip(tr("The next moment (Page Down, a clicker's forward key)"));
  position_ = new QLabel(this);
  position_->setObjectName(QStringLiteral("lessonPosition"));
  question_ = new QLabel(this);
  question_->setObjectName(QStringLiteral("lessonQuestion"));
  question_->setTextFormat(Qt::PlainText);
  question_->setWordWrap(true);
  question_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
  QFont big = question_->font();
  big.setPointSizeF(big.pointSizeF() * 1.4);
  big.setBold(true);
  question_->setFont(big);
  addWidget(previous_);
  addWidget(position_);
  addWidget(next_);
  addSeparator();
  addWidget(question_);
  connect(previous_, &QToolButton::clicked, player_, &LessonPlayer::previous);
  connect(next_, &QToolButton::clicked, player_, &LessonPlayer::next);
  connect(player_, &LessonPlayer::lessonChanged, this, [this] { refresh(); });
  connect(player_, &LessonPlayer::momentShown, this,
          [this](int, const QString& problem) { refresh(problem); });
  refresh();
}

void LessonBar::refresh(const QString& problem) {
  setVisible(player_->isLoaded());
  const int count = static_cast<int>(player_->lesson().moments.size());
  const int current = player_->current();
  position_->setText(current >= 0 ? tr(" %1 / %2 ").arg(current + 1).arg(count)
                                  : tr(" %n moment(s) ", nullptr, count));
  previous_->setEnabled(current > 0);
  next_->setEnabled(current + 1 < count);
  QString text;
  if (current >= 0 && current < count) {
    const LessonMoment& moment = player_->lesson().moments[static_cast<size_t>(current)];
    text = QString::fromStdString(moment.question);
    if (!problem.isEmpty()) text = tr("%1 — not shown: %2").arg(text, problem);
  } else if (player_->isLoaded()) {
    text = QString::fromStdString(player_->lesson().title);
    if (count > 0) text += tr(" — Page Down to begin");
  }
  question_->setText(text);
}

}  // namespace ascope
