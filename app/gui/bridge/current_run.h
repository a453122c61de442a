#pragma once
// The run the window shows, trained here (live) or opened from a run folder: its task, settings,
// folder and state. The GUI's one owner of these: the bridge writes a live run's state and
// folder, the run controller an opened run's; panels read them here and follow the signals.
#include <QObject>
#include <QString>

#include "engine/vocabulary/events.h"
#include "engine/vocabulary/task_descriptor.h"
#include "engine/vocabulary/training_config.h"

namespace ascope {

class CurrentRun : public QObject {
  Q_OBJECT

 public:
  explicit CurrentRun(QObject* parent = nullptr);

  /// The shown run's task; null before any run.
  const TaskDescriptor* task() const { return task_; }
  const TrainingConfig& config() const { return config_; }
  /// The run folder; "" until a live run's preparation has made it.
  QString folder() const { return folder_; }
  TrainerState state() const { return state_; }
  /// Preparing, running or paused: a trainer thread is working for this window.
  bool isBusy() const;
  /// Trained in this window (false: opened from a folder).
  bool isLive() const { return live_; }

  /// A run starts training here (state preparing, folder not known yet).
  void beginLive(const TrainingConfig& config);
  /// An opened run: its settings and folder, state idle.
  void showOpened(const TrainingConfig& config, const QString& folder);
  void setState(TrainerState state, const QString& reason = {});
  void setFolder(const QString& folder);
  /// No run shown.
  void clear();

 Q_SIGNALS:
  /// A different run is shown now (or none): task and settings may have changed.
  void runChanged();
  void stateChanged(TrainerState state, const QString& reason);
  void folderChanged(const QString& folder);

 private:
  const TaskDescriptor* task_ = nullptr;
  TrainingConfig config_;
  QString folder_;
  TrainerState state_ = TrainerState::kIdle;
  bool live_ = false;
};

}  // namespace ascope
