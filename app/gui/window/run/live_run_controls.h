#pragma once
// The commands a person sends to a run while it goes, and what they leave on screen: the Run
// dock's live learning rate and probe sample reach the engine, and a learning rate change the
// engine reports (at the step that first used it) is marked on the loss and accuracy curves, live
// and in opened runs alike.
#include <QObject>

#include <vector>

#include "app/gui/window/main/panels.h"
#include "engine/vocabulary/events.h"

namespace ascope {

class EngineBridge;

class LiveRunControls : public QObject {
  Q_OBJECT

 public:
  LiveRunControls(const Panels& panels, EngineBridge* bridge, QObject* parent = nullptr);

 private:
  Panels panels_;
  EngineBridge* bridge_;
};

}  // namespace ascope
