#pragma once
// The Attention dock: the per-head grid of the attention panel under the controls of the run's
// timeline (slider, Play, Live, probe sample, rollout settings). The timeline's state, its files
// and its background work are AttentionTimeline's; this view draws it, forwards the user's
// choices and animates Play. Every snapshot shown is announced (stepShown, liveShown,
// attentionShown) so the other docks follow the same step.
//
// An asked input ("Try it") can be put under the scope instead: its attention replaces the run's
// until "Back to the run".
#include <QJsonObject>
#include <QTimer>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

#include "app/gui/views/attention/attention_aggregates.h"
#include "app/gui/views/attention/timeline/attention_timeline.h"
#include "app/gui/views/news/run_news_reader.h"
#include "engine/runfolder/run_reader.h"
#include "engine/vocabulary/events.h"
#include "widgets/attention/attention_plot_data.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSlider;
class QStackedWidget;
class QToolButton;

namespace ascope {

class AttentionHeadGridPanel;
class CurrentRun;
class MinimalPairView;
struct MinimalPairPlotData;

class AttentionPresenter : public QWidget, public RunNewsReader {
  Q_OBJECT

 public:
  /// The timeline is the attention/ folder of `run`'s folder.
  explicit AttentionPresenter(const CurrentRun* run, QWidget* parent = nullptr);
  ~AttentionPresenter() override;

  AttentionHeadGridPanel* panel() const { return panel_; }
  QSlider* slider() const { return slider_; }
  QToolButton* playButton() const { return play_button_; }
  QPushButton* backButton() const { return back_button_; }

  /// The timeline this view draws (its state and background work).
  AttentionTimeline* timeline() const { return timeline_; }

  /// A probe of the running training; its chosen sample is shown at once while following live.
  void setLiveSnapshot(std::shared_ptr<const ProbeSet> probes);
  /// Lists the run folder's snapshots again, on a worker thread (e.g. once the run has ended).
  void refreshFiles();
  /// An opened run: its timeline, the probe set to show first, and the snapshots that did not
  /// read when it was opened (kept out of every later listing of the folder too).
  void showRun(std::vector<AttentionFileEntry> files, std::shared_ptr<const ProbeSet> newest,
               const QStringList& left_out = {});
  void clear();
  // RunNewsReader: the newest probe set (live and followed), new snapshots written, an opened
  // run's timeline and colour scale.
  void clearRun() override;
  void takeNews(const RunNews& news) override;

  /// Shows the stored snapshot nearest to `step` (the live one when that is the newest).
  void showStep(long long step);
  /// Moves `delta` snapshots along the timeline (the arrow keys).
  void stepBy(int delta);
  void showFirst();
  void showLast();
  /// Animates the timeline from the shown snapshot (from the start when at the end).
  void setPlaying(bool on);
  bool isPlaying() const { return play_timer_.isActive(); }
  /// Play's pace: `factor` times the normal one frame per 450 ms (0.25 .. 8).
  void setPlaySpeed(double factor);
  double playSpeed() const { return play_speed_; }
  int playInterval() const { return play_timer_.interval(); }
  QComboBox* speedSelector() const { return speed_box_; }

  /// Puts an asked input under the scope; `caption` says what it is and what the model answered,
  /// `name` what the timeline's step label says meanwhile ("" for "your input"; the Errors dock's
  /// samples are not the lecturer's input).
  void showAsked(AttentionPlotData data, const QString& caption, const QString& name = {});
  /// A minimal pair asked after its first input (showAsked): both inputs' attention side by
  /// side with their difference, in place of the head grid until the run is shown again.
  void showPair(const MinimalPairPlotData& pair);
  bool isShowingPair() const;
  MinimalPairView* pairView() const { return pair_view_; }
  /// Leaves the asked input and shows the run's snapshot (or the live probe) again.
  void returnToRun();
  bool isShowingAsked() const { return timeline_->isShowingAsked(); }
  /// What the step label says: "step 120 · 5/12", "your input", …
  QString stepText() const;

  /// Which sample of the probe set every view shows (0-based, in the run's probe order).
  void setProbeIndex(int index);
  int probeIndex() const { return timeline_->probeIndex(); }
  QComboBox* probeSelector() const { return probe_box_; }
  /// How the rollout groups are made; the shown snapshot is aggregated again.
  void setAggregateSettings(const AggregateSettings& settings);
  const AggregateSettings& aggregateSettings() const { return timeline_->aggregateSettings(); }

  bool isFollowingLive() const { return timeline_->isFollowingLive(); }
  int snapshotCount() const { return timeline_->snapshotCount(); }
  /// What the dock shows, for scripted mode's report: the model's groups and the aggregates, the
  /// probe samples, layers and heads, the step, the timeline's length, whether an asked input is
  /// under the scope, and the key labels of the group on screen.
  QJsonObject report() const override;
  /// The minimal pair's maps while one is shown (the head grid exports through ExportActions).
  QList<Exportable*> exportables() const override;
  long long shownStep() const { return timeline_->shownStep(); }
  /// Blocks until pending listing and loading have finished (tests, scripted mode).
  void waitForLoad();

 Q_SIGNALS:
  /// A stored snapshot is now shown: its step, and what the file kept of that step (the live
  /// probe is announced by liveShown).
  void stepShown(long long step, const std::optional<SamplePrediction>& sample,
                 const std::optional<PositionalEncodingSnapshot>& positional_encoding);
  /// The live probe is shown again, with the chosen sample's prediction.
  void liveShown(long long step, const std::optional<SamplePrediction>& sample);
  /// Whatever is now on screen: a live or stored probe, or an asked input.
  void attentionShown(SharedPlotData data);
  /// An asked input was put under the scope (true) or left (false).
  void askedShown(bool shown);
  /// A stored snapshot did not read and is left out of the timeline (AttentionTimeline's).
  void snapshotLeftOut(const QString& error);

 private:
  void onSliderMoved(int index);
  /// The probe chooser lists `captions` (keeping the choice when it still exists).
  void listProbeSamples(const QStringList& captions);
  /// Draws what the timeline shows now.
  void onShown(SharedPlotData shown, bool part_of_run);
  /// Slider, label, Live and the asked bar as the timeline's state says.
  void sync();
  void onPlayTick();

  AttentionTimeline* timeline_ = nullptr;
  bool balanced_ = false;      // grid and enlarged head share the width once data is there
  bool group_chosen_ = false;  // the first snapshot of a run picked its group
  QTimer play_timer_;
  double play_speed_ = 1.0;

  QSlider* slider_ = nullptr;
  QLabel* label_ = nullptr;
  QToolButton* play_button_ = nullptr;
  QComboBox* speed_box_ = nullptr;
  QToolButton* live_button_ = nullptr;
  QComboBox* probe_box_ = nullptr;
  QComboBox* fusion_box_ = nullptr;
  QDoubleSpinBox* discard_box_ = nullptr;
  QWidget* asked_bar_ = nullptr;
  QLabel* asked_label_ = nullptr;
  QString asked_name_;  ///< the step label's words while an asked input is shown
  QPushButton* back_button_ = nullptr;
  AttentionHeadGridPanel* panel_ = nullptr;
  MinimalPairView* pair_view_ = nullptr;
  QStackedWidget* stack_ = nullptr;  ///< the head grid, or a minimal pair
};

}  // namespace ascope
