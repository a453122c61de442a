#pragma once
// A run as a front end (the GUI's bridge, the CLI, tests) drives it: commands go in and return at
// once; events come out through drainEvents(). Trainer implements it; the GUI tests' fake engine
// implements it too, so the bridge cannot tell them apart.
#include "engine/vocabulary/events.h"

namespace ascope {

class RunControl {
 public:
  virtual ~RunControl() = default;

  virtual void pause() = 0;
  virtual void resume() = 0;
  /// While paused: run exactly one batch, then stay paused.
  virtual void stepOnce() = 0;
  /// Stop after the current batch; a checkpoint is written so the run can be resumed.
  virtual void stop() = 0;
  virtual void setLearningRate(double lr) = 0;
  virtual void setProbeSample(int index) = 0;

  /// Everything published since the last drain (never blocks on the run).
  virtual EventBatch drainEvents() = 0;
  /// The run has ended and published its final state: one more drain empties it for good.
  virtual bool finished() const = 0;
};

}  // namespace ascope
