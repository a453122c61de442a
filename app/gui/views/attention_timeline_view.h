#pragma once
// The Attention dock and the run's one time axis: the per-head grid of the attention panel under a
// timeline of the run's stored snapshots (slider, Play, Live). While training, it follows the
// newest probe ("live"); moving the slider (or asking for a step: a click on a curve, the arrow
// keys, the scripted --step) shows an earlier snapshot from the run folder. Every snapshot shown
// is announced with its step and, when the file stored them, the probe's prediction and the
// positional encoding of that step, so the other docks follow the same step. Files are listed
// and read off the GUI thread; the newest request wins.
//
// An asked input ("Try it") can be put under the scope instead: its attention replaces the run's
// until "Back to the run".
#include <QFutureWatcher>
#include <QTimer>
#include <QWidget>

#include <optional>
#include <vector>

#include "app/gui/views/attention_aggregates.h"
#include "engine/runfolder/run_reader.h"
#include "engine/vocabulary/events.h"
#include "widgets/attention/attention_plot_data.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSlider;
class QToolButton;

namespace ascope {

class AttentionHeadGridPanel;
class CurrentRun;

class AttentionTimelineView : public QWidget {
  Q_OBJECT

 public:
  /// The timeline is the attention/ folder of `run`'s folder.
  explicit AttentionTimelineView(const CurrentRun* run, QWidget* parent = nullptr);
  ~AttentionTimelineView() override;

  AttentionHeadGridPanel* panel() const { return panel_; }
  QSlider* slider() const { return slider_; }
  QToolButton* playButton() const { return play_button_; }
  QPushButton* backButton() const { return back_button_; }

  /// A probe of the running training; its chosen sample is shown at once while following live.
  void setLiveSnapshot(const ProbeSet& probes);
  /// Lists the run folder's snapshots again, on a worker thread (e.g. once the run has ended).
  void refreshFiles();
  /// An opened run: its timeline and the probe set to show first.
  void showRun(std::vector<AttentionFileEntry> files, const std::optional<ProbeSet>& newest);
  void clear();

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

  /// Puts an asked input under the scope; `caption` says what it is and what the model answered.
  void showAsked(AttentionPlotData data, const QString& caption);
  /// Leaves the asked input and shows the run's snapshot (or the live probe) again.
  void returnToRun();
  bool isShowingAsked() const { return showing_asked_; }

  /// Which sample of the probe set every view shows (0-based, in the run's probe order).
  void setProbeIndex(int index);
  int probeIndex() const { return probe_index_; }
  QComboBox* probeSelector() const { return probe_box_; }
  /// How the rollout groups are made; the shown snapshot is aggregated again.
  void setAggregateSettings(const AggregateSettings& settings);
  const AggregateSettings& aggregateSettings() const { return aggregate_settings_; }

  bool isFollowingLive() const { return following_; }
  int snapshotCount() const { return static_cast<int>(files_.size()); }
  long long shownStep() const { return shown_step_; }
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
  void attentionShown(const AttentionPlotData& data);
  /// An asked input was put under the scope (true) or left (false).
  void askedShown(bool shown);

 private:
  struct LoadResult {
    QString path;
    std::optional<AttentionPlotData> data;
    std::optional<SamplePrediction> sample;
    std::optional<PositionalEncodingSnapshot> positional_encoding;
    QStringList probe_captions;
    QString error;
  };
  void onSliderMoved(int index);
  /// The chosen sample of the live set, converted (here, or on a worker when large).
  void convertLive();
  /// Lists the probe set's samples in the chooser (keeps the choice when it still exists).
  void listProbeSamples(const QStringList& captions);
  /// Shows the current step again (a new probe sample or aggregate settings).
  void reshow();
  /// The asked input's aggregates, made on a worker.
  void aggregateAsked();
  void onAskedAggregated();
  /// A converted live probe is ready (converted here, or on a worker when large).
  void acceptLive(AttentionPlotData data);
  void onLiveConverted();
  void load(QString path);
  void onLoaded();
  void onListed();
  void setFiles(std::vector<AttentionFileEntry> files);
  void showLive();
  void updateLabel();
  /// `part_of_run` false for an asked input: it does not raise the run's colour scale.
  void showSnapshot(const AttentionPlotData& snapshot, bool part_of_run = true);
  void onPlayTick();

  const CurrentRun* run_;
  std::vector<AttentionFileEntry> files_;
  AttentionPlotData live_;
  AttentionPlotData asked_;  ///< the asked input, kept to aggregate it again
  int probe_index_ = 0;
  AggregateSettings aggregate_settings_;
  bool has_live_ = false;
  bool following_ = true;
  bool showing_asked_ = false;
  long long shown_step_ = -1;
  bool balanced_ = false;      // grid and enlarged head share the width once data is there
  bool group_chosen_ = false;  // the first snapshot of a run picked its group
  QString pending_path_;       // requested while a load was running
  bool list_again_ = false;    // a listing was asked for while one was running
  // Set when a job starts, cleared by its handler: a finished future's handler runs a little
  // later (a queued event), and waitForLoad must wait for the handler, not only the job.
  bool listing_ = false;
  bool loading_ = false;
  QFutureWatcher<LoadResult> watcher_;
  // Large live probes (a 512-token, 144-head snapshot is ~150 MB of weights) are converted on a
  // worker; a newer one arriving meanwhile replaces the pending one.
  QFutureWatcher<AttentionPlotData> live_watcher_;
  std::optional<ProbeSet> live_probes_;  ///< the newest live set, all samples
  bool live_pending_ = false;            ///< a newer set arrived while converting
  bool converting_live_ = false;
  QFutureWatcher<std::vector<AttentionFileEntry>> list_watcher_;
  QFutureWatcher<std::pair<int, AttentionPlotData>> asked_watcher_;
  int asked_generation_ = 0;  ///< of the newest aggregation of the asked input
  int asked_handled_ = 0;     ///< of the newest one whose result came back
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
  QPushButton* back_button_ = nullptr;
  AttentionHeadGridPanel* panel_ = nullptr;
};

}  // namespace ascope
