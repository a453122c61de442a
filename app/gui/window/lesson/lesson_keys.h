#pragma once
// A presenter's clicker sends Page Down and Page Up: while a lesson is open they step through its
// moments wherever the focus is in the window, before any dock's own use of the keys (the
// attention panel's layer keys) can take them. Dialogs and text fields keep their keys.
#include <QObject>

class QWidget;

namespace ascope {

class LessonPlayer;

class LessonKeys : public QObject {
  Q_OBJECT

 public:
  /// Watches the application's key events for `window` (install with qApp->installEventFilter).
  LessonKeys(LessonPlayer* player, QWidget* window);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  LessonPlayer* player_;
  QWidget* window_;
};

}  // namespace ascope
