#pragma once
// Where the shown run stands, in the few words the toolbar, the status bar and the presentation
// view have room for: its state, the step reached of how many, and the time left.
#include <QString>

#include <cstdint>

#include "engine/vocabulary/events.h"

namespace ascope {

struct RunSummary {
  TrainerState state = TrainerState::kIdle;
  QString reason;  ///< why it is in that state: "" or a failure message, "opened a run of …"
  bool has_progress = false;     ///< false until the first step of a run arrives
  std::int64_t step = 0;         ///< the newest step
  std::int64_t total_steps = 0;  ///< of the whole run
  int epoch = 0;
  QString eta;  ///< "about 6–8 min" (timed), "1:02" (the rate before), "– (paused)", "–" once ended

  /// "Training", "Paused", … (RunProgressView::stateName).
  QString stateText() const;
  /// "Training · epoch 2 · step 120 / 632 · ETA 1:02"; the state alone before any step.
  QString statusLine() const;
  /// "42 % · step 120 / 632 · ETA 1:02" (a progress bar's format; "%p" is the bar's percentage).
  QString barFormat() const;
};

}  // namespace ascope
