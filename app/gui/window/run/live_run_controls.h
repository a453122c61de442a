#pragma once
// The commands a person sends to a run while it goes, and what they leave on screen: the Run
// dock's live learning rate and probe sample reach the engine, and a learning rate change the
// engine reports (at the step that first used it) is marked on the loss and accuracy curves, live
// and in opened runs alike.
#include <QObject>

#include <vector>

#include "engine/vocabulary/events.h"

namespace ascope {

class CurvesPresenter;
class EngineBridge;
class RunControlBar;
class RunPanel;

class LiveRunControls : public QObject {
  Q_OBJECT

 public:
  LiveRunControls(RunControlBar* controls, RunPanel* run_panel, CurvesPresenter* curves,
                  EngineBridge* bridge, QObject* parent = nullptr);

 private:
  CurvesPresenter* curves_;
  EngineBridge* bridge_;
};

}  // namespace ascope
