#pragma once
// What a person set up survives a restart: the Run dock's task, preset, device and every
// hyperparameter field, and the last run trained or opened (reopened at start when its folder
// still exists). Kept in the application's QSettings under "run/" and "session/". The Run dock is
// saved a moment after each edit and when the window closes; a read-only opened run's settings
// are not the user's and are not saved.
#include <QObject>
#include <QString>
#include <QTimer>

class QSettings;

namespace ascope {

class CurrentRun;
class RunController;
class RunPresenter;

class RememberedSettings : public QObject {
  Q_OBJECT

 public:
  RememberedSettings(RunPresenter* panel, CurrentRun* run, RunController* controller,
                     QObject* parent = nullptr);

  /// Puts the saved task, preset, device and fields into the Run dock; returns whether any were
  /// saved.
  bool restoreRunSettings();
  /// Writes the Run dock's settings now (unless it shows an opened run read-only).
  void saveRunSettings();

  /// The run folder trained or opened last; "" when none.
  QString lastRun() const;
  /// Opens lastRun() once a worker thread has found its config.json (a folder on a slow or gone
  /// share must not freeze the window); forgets it when it is gone. Does nothing when a run is
  /// shown or training by then, or when the Run dock's task is no longer the remembered one.
  void reopenLastRun();

 Q_SIGNALS:
  /// reopenLastRun() has decided: `opened` whether it asked for the folder to be opened.
  void reopenDecided(const QString& folder, bool opened);

 private:
  void rememberRun(const QString& folder);

  RunPresenter* panel_;
  CurrentRun* run_;
  RunController* controller_;
  QTimer save_timer_;
  bool restoring_ = false;
};

}  // namespace ascope
