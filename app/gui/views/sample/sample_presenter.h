#pragma once
// The Sample dock's one owner: the sample panel and the "Try it" box under it, and which sample
// they show — the probe's at the step the timeline shows (or the newest while it follows the
// run), or an input asked about, which stays until the timeline moves on.
#include <QJsonObject>
#include <QObject>

#include <optional>

#include "app/gui/views/news/run_news_reader.h"
#include "engine/vocabulary/events.h"

class QWidget;

namespace ascope {

class CurrentRun;
class SamplePanel;
class TryItBox;

class SamplePresenter : public QObject, public RunNewsReader {
  Q_OBJECT

 public:
  /// Creates the panel and the box (children of `parent`) asking the checkpoints of `run`.
  SamplePresenter(const CurrentRun* run, QWidget* parent);

  /// What the dock holds: the panel above the box.
  QWidget* dockWidget() const { return widget_; }
  SamplePanel* panel() const { return panel_; }
  TryItBox* tryIt() const { return try_it_; }

  /// The newest probe's sample of a live (or followed) run; shown at once when `following_live`
  /// and the step on show has none of its own.
  void setLive(const SamplePrediction& sample, bool following_live);
  /// The timeline follows the run again: the newest probe's sample, or `probe`'s (the sample
  /// chosen among the probe set's) when given.
  void showLive(const std::optional<SamplePrediction>& probe);
  /// The sample of the step on show; none (a file written before samples were stored) keeps what
  /// is shown. An asked input stays shown until leaveAsked().
  void showStep(const std::optional<SamplePrediction>& sample);
  /// An input asked about (Try it, an error picked in the Errors dock).
  void showAsked(const SamplePrediction& sample);
  /// The asked input is left: the sample of the step on show again.
  void leaveAsked();
  void clear();
  // RunNewsReader: the sample the newest probe answered.
  void clearRun() override;
  void takeNews(const RunNews& news) override;

  QList<Exportable*> exportables() const override;
  /// "sample_shown": whether the dock shows a sample.
  QJsonObject report() const override;

 private:
  void show(const SamplePrediction& sample);

  QWidget* widget_;
  SamplePanel* panel_;
  TryItBox* try_it_;
  std::optional<SamplePrediction> live_;
  std::optional<SamplePrediction> step_;
  bool asked_ = false;
};

}  // namespace ascope
