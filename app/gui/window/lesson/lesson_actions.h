#pragma once
// The Lesson menu: open a lesson file (read and checked against its runs on a worker thread:
// moments their runs cannot show are skipped, each said by name), build one in the window
// (Add moment… takes what the window shows), save it beside its runs, and step through it.
// Opening a lesson only reads: neither the lesson file nor any run folder is written.
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QStringList>

#include "engine/runfolder/lesson/lesson_file.h"
#include "engine/vocabulary/expected.h"

class QMenu;
class QWidget;

namespace ascope {

class LessonPlayer;

class LessonActions : public QObject {
  Q_OBJECT

 public:
  LessonActions(LessonPlayer* player, QWidget* window);

  void addTo(QMenu* menu);

  /// Reads `path` on a worker; lessonOpened follows.
  void openLesson(const QString& path);
  bool isOpening() const { return open_watcher_.isRunning(); }
  /// Writes the lesson to `path` on a worker, its runs relative to the file's folder where they
  /// lie beneath it; lessonSaved follows.
  void saveLesson(const QString& path);
  bool isSaving() const { return save_watcher_.isRunning(); }
  /// Asks for a question, the view and the hiding, then adds the window's moment.
  void addMomentInteractively();

 Q_SIGNALS:
  /// For the status bar and the log.
  void message(const QString& text);
  void lessonOpened(bool ok);
  void lessonSaved(bool ok);

 private:
  struct Opened {
    QString path;
    Expected<LessonRead> read{Error{""}};
  };
  void onOpened();
  void openInteractively();
  void saveInteractively(bool ask_for_path);

  LessonPlayer* player_;
  QWidget* window_;
  QFutureWatcher<Opened> open_watcher_;
  QFutureWatcher<Status> save_watcher_;
  QString saving_path_;
  int saving_serial_ = -1;  ///< the player's lesson being saved (LessonPlayer::serial)
};

}  // namespace ascope
