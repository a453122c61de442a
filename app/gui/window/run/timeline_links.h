#pragma once
// The timeline is the one time axis: the step the Attention dock shows moves every dock's cursor
// (RunNewsReader::followStep) and brings the Sample and Positional encoding docks that step's
// sample and encoding; Decoding follows the attention shown and the head chosen; a step picked on
// the curves is shown; an input asked in "Try it" is shown under the scope.
#include <QObject>
#include <vector>

namespace ascope {

class AttentionTimelineView;
class CurvesPresenter;
class DecodingPresenter;
class EncodingPresenter;
class RunNewsReader;
class SamplePresenter;

class TimelineLinks : public QObject {
  Q_OBJECT

 public:
  TimelineLinks(AttentionTimelineView* timeline, CurvesPresenter* curves, SamplePresenter* sample,
                EncodingPresenter* encoding, DecodingPresenter* decoding,
                std::vector<RunNewsReader*> readers, QObject* parent = nullptr);

 private:
  void followStep(long long step);

  std::vector<RunNewsReader*> readers_;
};

}  // namespace ascope
