#include "app/gui/bridge/current_run.h"

#include "engine/tasks/registry/task_registry.h"

namespace ascope {

CurrentRun::CurrentRun(QObject* parent) : QObject(parent) {}

bool CurrentRun::isBusy() const {
  return state_ == TrainerState::kPreparing || state_ == TrainerState::kRunning ||
         state_ == TrainerState::kPaused;
}

void CurrentRun::beginLive(const TrainingConfig& config) {
  task_ = TaskRegistry::instance().find(config.task);
  config_ = config;
  folder_.clear();
  live_ = true;
  state_ = TrainerState::kPreparing;
  Q_EMIT runChanged();
  Q_EMIT folderChanged(folder_);
  Q_EMIT stateChanged(state_, {});
}

void CurrentRun::showOpened(const TrainingConfig& config, const QString& folder) {
  task_ = TaskRegistry::instance().find(config.task);
  config_ = config;
  folder_ = folder;
  live_ = false;
  state_ = TrainerState::kIdle;
  Q_EMIT runChanged();
  Q_EMIT folderChanged(folder_);
  Q_EMIT stateChanged(state_, {});
}

void CurrentRun::setState(TrainerState state, const QString& reason) {
  if (state == state_ && reason.isEmpty()) return;
  state_ = state;
  Q_EMIT stateChanged(state_, reason);
}

void CurrentRun::setFolder(const QString& folder) {
  if (folder == folder_) return;
  folder_ = folder;
  Q_EMIT folderChanged(folder_);
}

void CurrentRun::clear() {
  task_ = nullptr;
  config_ = TrainingConfig{};
  folder_.clear();
  live_ = false;
  state_ = TrainerState::kIdle;
  Q_EMIT runChanged();
  Q_EMIT folderChanged(folder_);
  Q_EMIT stateChanged(state_, {});
}

}  // namespace ascope
