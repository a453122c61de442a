#include "app/gui/window/run/live_run_controls.h"

#include "app/gui/bridge/engine_bridge.h"
#include "app/gui/views/live_learning_rate_box.h"
#include "app/gui/views/probe_sample_picker.h"
#include "app/gui/views/run_panel.h"
#include "widgets/curves/metric_curve_panel.h"

namespace ascope {

LiveRunControls::LiveRunControls(const Panels& panels, EngineBridge* bridge, QObject* parent)
    : QObject(parent), panels_(panels), bridge_(bridge) {
  LiveLearningRateBox* rate = panels_.run->liveLearningRate();
  connect(rate, &LiveLearningRateBox::learningRateRequested, bridge_,
          &EngineBridge::setLearningRate);
  connect(panels_.run->probePicker(), &ProbeSamplePicker::probeSampleRequested, bridge_,
          &EngineBridge::setProbeSample);
  // Emitted by the bridge's drain timer on the GUI thread.
  connect(bridge_, &EngineBridge::learningRateChanged, this,
          [this, rate](const LearningRateChange& change) {
            rate->applied(change);
            markOnCurves(panels_, {change});
          });
}

QString LiveRunControls::markerText(const LearningRateChange& change) {
  return QStringLiteral("lr %1").arg(change.lr, 0, 'g', 3);
}

void LiveRunControls::markOnCurves(const Panels& panels,
                                   const std::vector<LearningRateChange>& changes) {
  for (const LearningRateChange& change : changes) {
    const double step = static_cast<double>(change.step);
    panels.loss->addEventMarker(step, markerText(change));
    panels.accuracy->addEventMarker(step, markerText(change));
  }
}

}  // namespace ascope
