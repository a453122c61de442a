#pragma once
// The Decoding dock's one owner: the step-by-step view of the decoding transcript of what the
// Attention dock shows (DecodingPayload payloads), with the head chosen there.
#include <QObject>

#include "app/gui/views/common/export_source.h"
#include "widgets/attention/attention_plot_data.h"

class QScrollArea;
class QWidget;

namespace ascope {

class DecodingStepView;

class DecodingPresenter : public QObject, public ExportSource {
  Q_OBJECT

 public:
  /// Creates the view in a scroll area (children of `parent`): the dock holds dockWidget().
  explicit DecodingPresenter(QWidget* parent);

  QWidget* dockWidget() const;
  DecodingStepView* view() const { return view_; }

  /// What the Attention dock shows now; its transcript (if any) is stepped through.
  void showAttention(SharedPlotData data);
  /// The head the Attention dock chose.
  void setHead(int layer, int head);
  void clear();

  QList<Exportable*> exportables() const override;

 private:
  QScrollArea* scroll_;
  DecodingStepView* view_;
};

}  // namespace ascope
