#pragma once
// The lesson's strip above the docks while a lesson is open: where the class is ("3 / 8"), the
// moment's question in large type, and Previous and Next for the mouse (Page Up and Page Down,
// a presenter's clicker, for the keyboard). Shows what LessonPlayer says; keeps no state.
#include <QToolBar>

class QLabel;
class QToolButton;

namespace ascope {

class LessonPlayer;

class LessonBar : public QToolBar {
  Q_OBJECT

 public:
  LessonBar(LessonPlayer* player, QWidget* parent = nullptr);

  QLabel* positionLabel() const { return position_; }
  QLabel* questionLabel() const { return question_; }

 private:
  void refresh(const QString& problem = {});

  LessonPlayer* player_;
  QToolButton* previous_ = nullptr;
  QToolButton* next_ = nullptr;
  QLabel* position_ = nullptr;
  QLabel* question_ = nullptr;
};

}  // namespace ascope
