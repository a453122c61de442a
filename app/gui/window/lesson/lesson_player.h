#pragma once
// Plays a lesson (engine/runfolder/lesson) in the window: each moment opens its run when another
// is shown, moves the timeline to its step and sample (or asks Try it its typed input), picks its
// group, layer and head, raises its view and, when the moment is hidden, starts a prediction
// round on the head so the class guesses before it sees. The one owner of the lesson's state
// (its file, moments and the moment shown). Nothing waits on the GUI thread: each part that
// loads on a worker is followed by a signal or a short poll.
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <functional>

#include "engine/runfolder/lesson/lesson.h"

namespace ascope {

class AttentionPresenter;
class CurrentRun;
class RunController;
class SamplePresenter;

class LessonPlayer : public QObject {
  Q_OBJECT

 public:
  /// What a moment moves: the run shown, the timeline and its panel, Try it, and the docks (a
  /// dock raised by its title).
  struct Parts {
    RunController* controller = nullptr;
    const CurrentRun* run = nullptr;
    AttentionPresenter* attention = nullptr;
    SamplePresenter* sample = nullptr;
    std::function<bool(const QString&)> raise_dock;
  };
  LessonPlayer(Parts parts, QObject* parent = nullptr);

  /// A lesson read from `path` ("" for one not saved yet), its moments' runs already resolved to
  /// folders (lessonRunPath); `skipped` of the file's moments could not be shown and are not in
  /// it. Shows nothing until play().
  void setLesson(const QString& path, Lesson lesson, int skipped = 0);
  /// Bumps whenever another lesson is set or this one closed: an answer from a worker (a save)
  /// started for an earlier lesson must not touch this one.
  int serial() const { return serial_; }
  /// Moments of the file left out when it was opened: saving over it would lose them.
  int skippedCount() const { return skipped_; }
  void close();
  bool isLoaded() const { return loaded_; }
  const Lesson& lesson() const { return lesson_; }
  QString path() const { return path_; }
  void setPath(const QString& path) { path_ = path; }
  /// The moment on screen (0-based); -1 before the first.
  int current() const { return current_; }
  /// A moment is being put on screen (a run opening, a snapshot loading, Try it answering).
  bool isBusy() const { return busy_; }

  void play(int index);
  void next() { play(current_ + 1); }
  void previous() { play(current_ - 1); }

  /// The window as it is now, as a moment: its run folder, step, sample or asked text, group,
  /// layer, head, and the prediction round's row and whether one is running.
  LessonMoment momentFromWindow() const;
  /// Inserts `moment` after the one shown (at the end before the first) and shows it as current.
  void addMoment(LessonMoment moment);
  /// Adds `moment` after the last one (the moment shown stays).
  void appendMoment(LessonMoment moment);
  /// Drops the moment shown; the one before it becomes current (Next shows the one after).
  void removeCurrent();

  /// Hides the head on screen for the class to predict (the attention panel's round), or shows
  /// the weights and the score when it is hidden.
  void askFirstOrReveal();

  /// The dock a view is shown in ("attention" → "Attention").
  static QString dockTitle(const std::string& view);

 Q_SIGNALS:
  /// The lesson was set, edited or closed.
  void lessonChanged();
  /// Moment `index` is on screen (or, with `problem` set, could not be shown: the run did not
  /// open, Try it had no answer).
  void momentShown(int index, const QString& problem);

 private:
  /// After the run is the moment's: the step and sample, or the typed input.
  void showInput();
  /// After the attention is on screen: the head, the round, the view.
  void showHead();
  void finish(const QString& problem);
  /// Drops a moment still being put on screen: its late signals are ignored from now on.
  void cancelPending();
  /// The moment being put on screen, or nullptr when the lesson changed under it (then the
  /// play ends, saying so).
  const LessonMoment* pendingMoment();
  /// Polls until the timeline has loaded what it was asked for, then `then`.
  void whenLoaded(std::function<void()> then);

  Parts parts_;
  QString path_;
  Lesson lesson_;
  bool loaded_ = false;
  int skipped_ = 0;
  int serial_ = 0;
  int current_ = -1;
  bool busy_ = false;
  int generation_ = 0;  ///< bumps with every play(): late answers for an older one are dropped
  QTimer poll_;
  std::function<void()> after_load_;
  QList<QMetaObject::Connection> waiting_;
};

}  // namespace ascope
