#pragma once
// The sample panel's one conversion: a prediction shown in the form its task's sample takes
// (an image, a labelled text, a translation).
#include "engine/vocabulary/events.h"

namespace ascope {

class SamplePanel;

void showSamplePrediction(SamplePanel& panel, const SamplePrediction& sample);

}  // namespace ascope
