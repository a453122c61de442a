#pragma once
// The timeline is the one time axis: the step the Attention dock shows moves every dock's cursor
// (RunController::followStep) and brings the Sample and Positional encoding docks that step's
// sample and encoding; Decoding follows the attention shown and the head chosen; a step picked on
// the curves is shown; an input asked in "Try it" is shown under the scope.
#include <QObject>

namespace ascope {

class AttentionPresenter;
class CurvesPresenter;
class DecodingPresenter;
class EncodingPresenter;
class RunController;
class SamplePresenter;

class TimelineLinks : public QObject {
  Q_OBJECT

 public:
  TimelineLinks(AttentionPresenter* timeline, CurvesPresenter* curves, SamplePresenter* sample,
                EncodingPresenter* encoding, DecodingPresenter* decoding, RunController* controller,
                QObject* parent = nullptr);
};

}  // namespace ascope
