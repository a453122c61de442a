#pragma once
// Lesson → Add moment…: the question the class is asked, which view shows the moment, and
// whether the head is hidden until the class has guessed. Everything else (run, step, sample or
// typed input, group, layer, head, the asked row) is what the window shows.
#include <QDialog>

#include "engine/runfolder/lesson/lesson.h"

class QCheckBox;
class QComboBox;
class QLineEdit;

namespace ascope {

class MomentDialog : public QDialog {
  Q_OBJECT

 public:
  /// Starts from `moment` (taken from the window) and edits its question, view and hiding.
  MomentDialog(const LessonMoment& moment, const QString& where, QWidget* parent = nullptr);
  /// The moment as edited.
  LessonMoment moment() const;

 private:
  LessonMoment moment_;
  QLineEdit* question_ = nullptr;
  QComboBox* view_ = nullptr;
  QCheckBox* hidden_ = nullptr;
};

}  // namespace ascope
