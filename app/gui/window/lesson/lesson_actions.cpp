#include "app/gui/window/lesson/lesson_actions.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QtConcurrent/QtConcurrentRun>

#include "app/gui/window/lesson/lesson_player.h"
#include "app/gui/window/lesson/moment_dialog.h"
#include "engine/runfolder/lesson_moment_check.h"

namespace ascope {

LessonActions::LessonActions(LessonPlayer* player, QWidget* window)
    : QObject(window), player_(player), window_(window) {
  connect(&open_watcher_, &QFutureWatcher<Opened>::finished, this, &LessonActions::onOpened);
  connect(&save_watcher_, &QFutureWatcher<Status>::finished, this, [this] {
    const Status status = save_watcher_.result();
    if (status.ok()) {
      // Another lesson may be open by now: the path is this file's only if it still is.
      if (player_->serial() == saving_serial_) player_->setPath(saving_path_);
      Q_EMIT message(tr("Lesson saved: %1").arg(saving_path_));
    } else {
      Q_EMIT message(
          tr("The lesson was not saved: %1").arg(QString::fromStdString(status.error())));
    }
    Q_EMIT lessonSaved(status.ok());
  });
}

void LessonActions::addTo(QMenu* menu) {
  menu->addAction(tr("&New lesson"), this, [this] {
    Lesson empty;
    empty.title = tr("Lesson").toStdString();
    player_->setLesson({}, empty);
    Q_EMIT message(tr("A new lesson: show what the class should see, then Lesson → Add moment…"));
  });
  menu->addAction(tr("&Open lesson…"), this, &LessonActions::openInteractively);
  menu->addAction(tr("&Save lesson"), this, [this] { saveInteractively(false); });
  menu->addAction(tr("Save lesson &as…"), this, [this] { saveInteractively(true); });
  menu->addSeparator();
  menu->addAction(tr("Ask the class &first: hide the head, or reveal it\tH, R"), player_,
                  &LessonPlayer::askFirstOrReveal);
  menu->addSeparator();
  menu->addAction(tr("&Add moment…"), this, &LessonActions::addMomentInteractively);
  menu->addAction(tr("&Remove this moment"), player_, &LessonPlayer::removeCurrent);
  menu->addSeparator();
  // The keys are LessonKeys' (a clicker's), not shortcuts: a dock's own Page Down would clash.
  menu->addAction(tr("&Next moment\tPage Down"), player_, &LessonPlayer::next);
  menu->addAction(tr("&Previous moment\tPage Up"), player_, &LessonPlayer::previous);
  menu->addAction(tr("&Close lesson"), player_, &LessonPlayer::close);
}

void LessonActions::openInteractively() {
  const QString path = QFileDialog::getOpenFileName(window_, tr("Open lesson"), QString(),
                                                    tr("Lessons (*.json);;All files (*)"));
  if (!path.isEmpty()) openLesson(path);
}

void LessonActions::openLesson(const QString& path) {
  if (isOpening()) return;
  Q_EMIT message(tr("Opening lesson %1…").arg(path));
  open_watcher_.setFuture(QtConcurrent::run([path] {
    Opened opened;
    opened.path = path;
    Expected<LessonRead> read = readLesson(path.toStdString());
    if (read.ok()) {
      LessonRead playable = playableLesson(path.toStdString(), std::move(*read));
      // The player works with folders: each moment's run as this file's folder resolves it.
      for (LessonMoment& moment : playable.lesson.moments) {
        moment.run = lessonRunPath(path.toStdString(), moment);
      }
      opened.read = std::move(playable);
    } else {
      opened.read = Error{read.error()};
    }
    return opened;
  }));
}

void LessonActions::onOpened() {
  Opened opened = open_watcher_.result();
  if (!opened.read.ok()) {
    Q_EMIT message(
        tr("The lesson did not open: %1").arg(QString::fromStdString(opened.read.error())));
    Q_EMIT lessonOpened(false);
    return;
  }
  for (const std::string& skipped : opened.read->skipped) {
    Q_EMIT message(tr("Skipped: %1").arg(QString::fromStdString(skipped)));
  }
  const std::size_t count = opened.read->lesson.moments.size();
  player_->setLesson(opened.path, std::move(opened.read->lesson),
                     static_cast<int>(opened.read->skipped.size()));
  Q_EMIT message(tr("Lesson %1: %n moment(s) to play (Page Down), %2 skipped", nullptr,
                    static_cast<int>(count))
                     .arg(QFileInfo(opened.path).fileName())
                     .arg(opened.read->skipped.size()));
  Q_EMIT lessonOpened(true);
}

void LessonActions::saveInteractively(bool ask_for_path) {
  if (!player_->isLoaded()) {
    Q_EMIT message(tr("No lesson to save: Lesson → New lesson first"));
    return;
  }
  QString path = player_->path();
  // Moments left out when it opened would be lost by saving over the file: ask for another.
  if (ask_for_path || path.isEmpty() || player_->skippedCount() > 0) {
    path = QFileDialog::getSaveFileName(window_, tr("Save lesson"),
                                        path.isEmpty() ? QStringLiteral("lesson.json") : path,
                                        tr("Lessons (*.json)"));
  }
  if (!path.isEmpty()) saveLesson(path);
}

void LessonActions::saveLesson(const QString& path) {
  if (isSaving()) return;
  if (player_->skippedCount() > 0 && !player_->path().isEmpty() &&
      QFileInfo(path).absoluteFilePath() == QFileInfo(player_->path()).absoluteFilePath()) {
    // The moments left out when it opened are in the file, not here: saving over it would
    // lose them.
    Q_EMIT message(tr("Not saved over %1: %n of its moment(s) could not be shown and are not in "
                      "the window; save the lesson under another name",
                      nullptr, player_->skippedCount())
                       .arg(path));
    Q_EMIT lessonSaved(false);
    return;
  }
  Lesson lesson = player_->lesson();
  const QDir folder = QFileInfo(path).absoluteDir();
  for (LessonMoment& moment : lesson.moments) {
    const QString run = QFileInfo(QString::fromStdString(moment.run)).absoluteFilePath();
    const QString relative = folder.relativeFilePath(run);
    // Beside or under the lesson: relative, so the lesson and its runs move together.
    moment.run = (relative.startsWith(QStringLiteral("..")) ? run : relative).toStdString();
  }
  saving_path_ = path;
  saving_serial_ = player_->serial();
  save_watcher_.setFuture(QtConcurrent::run(
      [path, lesson = std::move(lesson)] { return writeLesson(path.toStdString(), lesson); }));
}

void LessonActions::addMomentInteractively() {
  LessonMoment moment = player_->momentFromWindow();
  if (moment.run.empty()) {
    Q_EMIT message(tr("Open or train a run first: a moment is a run at a step"));
    return;
  }
  const QString where = moment.text.empty() ? tr("%1 · step %2 · sample %3 · layer %4 · head %5")
                                                  .arg(QString::fromStdString(moment.run))
                                                  .arg(moment.step)
                                                  .arg(moment.sample + 1)
                                                  .arg(moment.layer)
                                                  .arg(moment.head)
                                            : tr("%1 · “%2” · layer %3 · head %4")
                                                  .arg(QString::fromStdString(moment.run),
                                                       QString::fromStdString(moment.text))
                                                  .arg(moment.layer)
                                                  .arg(moment.head);
  MomentDialog dialog(moment, where, window_);
  if (dialog.exec() != QDialog::Accepted) return;
  if (!player_->isLoaded()) {
    Lesson lesson;
    lesson.title = tr("Lesson").toStdString();
    player_->setLesson({}, lesson);
  }
  player_->addMoment(dialog.moment());
}

}  // namespace ascope
