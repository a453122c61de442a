#pragma once
// The Decoding dock's one owner: the step-by-step view of the decoding transcript of what the
// Attention dock shows (DecodingPayload payloads), with the head chosen there, and for a sentence
// decoded with a beam the beam's tree above it: the hypothesis clicked there is the one stepped
// through.
#include <QObject>

#include "app/gui/views/news/run_news_reader.h"
#include "widgets/attention/attention_plot_data.h"

class QScrollArea;
class QSplitter;
class QWidget;

namespace ascope {

class BeamTreeView;
class DecodingStepView;

class DecodingPresenter : public QObject, public RunNewsReader {
  Q_OBJECT

 public:
  /// Creates the view in a scroll area (children of `parent`): the dock holds dockWidget().
  explicit DecodingPresenter(QWidget* parent);

  QWidget* dockWidget() const;
  DecodingStepView* view() const { return view_; }
  BeamTreeView* beamView() const { return beam_; }

  /// What the Attention dock shows now; its transcript (if any) is stepped through, and its beam
  /// (if any) drawn, its best hypothesis chosen.
  void showAttention(SharedPlotData data);
  /// Steps through finished hypothesis `hypothesis` of the beam shown.
  void chooseHypothesis(int hypothesis);
  /// The head the Attention dock chose.
  void setHead(int layer, int head);
  void clear();
  // RunNewsReader: nothing of its own (it follows what the Attention dock shows); cleared.
  void clearRun() override;
  void takeNews(const RunNews& news) override;

  QList<Exportable*> exportables() const override;

 private:
  QScrollArea* scroll_;
  QSplitter* split_;  ///< the beam's tree above the steps
  QScrollArea* beam_scroll_;
  BeamTreeView* beam_;
  DecodingStepView* view_;
  SharedPlotData shown_;  ///< what the Attention dock shows (with the beam, if any)
};

}  // namespace ascope
