#pragma once
// The commands a person sends to a run while it goes: the Run dock's live learning rate and probe
// sample reach the engine, and the rate box shows the rate the engine applied. (The change itself
// reaches the curves as the run's news, RunController.)
#include <QObject>

#include <vector>

#include "engine/vocabulary/events.h"

namespace ascope {

class EngineBridge;
class RunControlBar;
class RunPresenter;

class LiveRunControls : public QObject {
  Q_OBJECT

 public:
  LiveRunControls(RunControlBar* controls, RunPresenter* run_panel, EngineBridge* bridge,
                  QObject* parent = nullptr);

 private:
  EngineBridge* bridge_;
};

}  // namespace ascope
