#include "app/gui/window/run/live_run_controls.h"

#include "app/gui/bridge/engine_bridge.h"
#include "app/gui/views/run/live_learning_rate_box.h"
#include "app/gui/views/run/run_control_bar.h"
#include "app/gui/views/run/run_presenter.h"
#include "app/gui/views/sample/probe_sample_picker.h"

namespace ascope {

LiveRunControls::LiveRunControls(RunControlBar* controls, RunPresenter* run_panel,
                                 EngineBridge* bridge, QObject* parent)
    : QObject(parent), bridge_(bridge) {
  LiveLearningRateBox* rate = controls->liveLearningRate();
  connect(rate, &LiveLearningRateBox::learningRateRequested, bridge_,
          &EngineBridge::setLearningRate);
  connect(run_panel->probePicker(), &ProbeSamplePicker::probeSampleRequested, bridge_,
          &EngineBridge::setProbeSample);
  connect(bridge_, &EngineBridge::stepsArrived, rate,
          [rate](const std::vector<StepMetrics>& steps) {
            if (!steps.empty()) rate->showCurrentRate(steps.back().lr);
          });
  // Emitted by the bridge's drain timer on the GUI thread.
  connect(bridge_, &EngineBridge::learningRateChanged, this,
          [rate](const LearningRateChange& change) { rate->applied(change); });
}

}  // namespace ascope
