#pragma once
// The main window's panels, created once and shared by the parts that feed or export them.
#include <QList>

#include "widgets/common/exportable.h"

namespace ascope {

class AttentionTimelineView;
class CurvesPresenter;
class DecodingStepView;
class ErrorAnalysisPanel;
class HeadAblationTable;
class HeadStatsGridPanel;
class LogPanel;
class MetricCurvePanel;
class PositionalEncodingPanel;
class RunControlBar;
class RunPanel;
class SamplePanel;
class TryItBox;

struct Panels {
  RunPanel* run = nullptr;
  RunControlBar* controls = nullptr;  ///< the run toolbar: commands, progress, learning rate
  CurvesPresenter* curves = nullptr;  ///< the one owner of what the two curves below show
  MetricCurvePanel* loss = nullptr;
  MetricCurvePanel* accuracy = nullptr;
  AttentionTimelineView* attention = nullptr;
  DecodingStepView* decoding = nullptr;  ///< translation: greedy decoding, one token at a time
  PositionalEncodingPanel* positional_encoding = nullptr;
  SamplePanel* sample = nullptr;
  TryItBox* try_it = nullptr;
  HeadStatsGridPanel* heads = nullptr;    ///< per-head statistics over training
  HeadAblationTable* ablation = nullptr;  ///< what each head contributes
  ErrorAnalysisPanel* errors = nullptr;   ///< a run scored on a data set, its errors
  LogPanel* log = nullptr;

  /// Every panel that can save itself as a figure and its data as CSV.
  QList<Exportable*> exportables() const;
};

}  // namespace ascope
