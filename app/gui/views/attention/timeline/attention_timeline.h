#pragma once
// The run's one time axis, apart from any widget: the run folder's stored snapshots, the live
// probe set of a running training, an asked input ("Try it"), and which of them is shown (its
// step, probe sample and rollout settings). Snapshot files are listed and read, and large probes
// converted, off the GUI thread; the newest request wins. AttentionPresenter draws this state
// and hands it the user's choices; the other docks follow the step it announces.
#include <QFutureWatcher>
#include <QObject>
#include <QStringList>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "app/gui/views/attention/attention_aggregates.h"
#include "engine/runfolder/run_reader.h"
#include "engine/vocabulary/events.h"
#include "widgets/attention/attention_plot_data.h"

namespace ascope {

class CurrentRun;

/// The probe chooser's entries: a caption and a validation index per sample of a probe set.
struct ProbeChoices {
  QStringList captions;
  QList<int> samples;
  bool operator==(const ProbeChoices& o) const {
    return captions == o.captions && samples == o.samples;
  }
};

class AttentionTimeline : public QObject {
  Q_OBJECT

 public:
  /// The timeline is the attention/ folder of `run`'s folder.
  explicit AttentionTimeline(const CurrentRun* run, QObject* parent = nullptr);
  ~AttentionTimeline() override;

  /// A probe of the running training, shared with the bridge (never copied); its chosen sample
  /// is shown at once while following live.
  void setLiveProbes(std::shared_ptr<const ProbeSet> probes);
  /// Lists the run folder's snapshots again, on a worker thread (e.g. once the run has ended).
  void refreshFiles();
  /// An opened run: its timeline, the probe set to show first, and the snapshots that did not
  /// read when it was opened (kept out of every later listing of the folder too).
  void showRun(std::vector<AttentionFileEntry> files, std::shared_ptr<const ProbeSet> newest,
               const QStringList& left_out = {});
  void clear();

  /// Shows stored snapshot `index` (0 = the first; the newest is the live probe when there is one).
  void showIndex(int index);
  /// Shows the stored snapshot nearest to `step`.
  void showStep(long long step);
  /// Follows the newest probe of the running training again (leaving an asked input).
  void followLive();
  /// Puts an asked input under the scope instead of the run.
  void showAsked(SharedPlotData data);
  /// Leaves the asked input and shows the run's snapshot (or the live probe) again.
  void returnToRun();

  /// Which sample of the probe set is shown (0-based, in the run's probe order).
  void setProbeIndex(int index);
  int probeIndex() const { return probe_index_; }
  /// How the rollout groups are made; the shown snapshot is aggregated again.
  void setAggregateSettings(const AggregateSettings& settings);
  const AggregateSettings& aggregateSettings() const { return aggregate_settings_; }

  int snapshotCount() const { return static_cast<int>(files_.size()); }
  /// The stored snapshot the timeline stands at (the newest while following live).
  int index() const { return index_; }
  long long shownStep() const { return shown_step_; }
  bool isFollowingLive() const { return following_; }
  /// Whether "Live" means anything: false for an opened run nobody is training.
  bool canFollowLive() const { return live_possible_; }
  bool isShowingAsked() const { return showing_asked_; }
  /// A stored snapshot is being read or waits to be (Play waits for each frame).
  bool isLoading() const { return watcher_.isRunning() || !pending_path_.isEmpty(); }
  /// Anything waitForLoad() waits for is still under way: a listing, a load, a conversion of the
  /// live probe or of an asked input. (A lesson's moment polls it instead of blocking.)
  bool isBusy() const {
    return loading_ || listing_ || !pending_path_.isEmpty() || converting_live_ ||
           asked_handled_ != asked_generation_;
  }
  /// Why the last stored snapshot could not be read; empty when it could.
  const QString& loadError() const { return load_error_; }
  /// The probe set's samples as the chooser lists them.
  const QStringList& probeCaptions() const { return probes_.captions; }
  /// The validation index of each sample of the probe set, in the chooser's order (a lesson's
  /// moment names its sample by it).
  const QList<int>& probeSampleIndices() const { return probes_.samples; }
  /// Blocks until pending listing, loading and conversions have finished (tests, scripted mode):
  /// until !isBusy().
  void waitForLoad();

 Q_SIGNALS:
  /// What to draw now: a live or stored probe (`part_of_run`) or an asked input.
  void shown(SharedPlotData data, bool part_of_run);
  /// A stored snapshot is now shown: its step, and what the file kept of that step.
  void stepShown(long long step, const std::optional<SamplePrediction>& sample,
                 const std::optional<PositionalEncodingSnapshot>& positional_encoding);
  /// The live probe is shown again, with the chosen sample's prediction.
  void liveShown(long long step, const std::optional<SamplePrediction>& sample);
  /// An asked input was put under the scope (true) or left (false).
  void askedShown(bool shown);
  void probeCaptionsChanged(const QStringList& captions);
  /// Anything a view shows about the timeline changed: files, index, step, live, asked, error.
  void changed();
  /// A stored snapshot did not read (`error` names the file): it is left out of the timeline, and
  /// the one now in its place is shown.
  void snapshotLeftOut(const QString& error);

 private:
  struct LoadResult {
    QString path;
    SharedPlotData data;  ///< null when the file could not be read
    std::optional<SamplePrediction> sample;
    std::optional<PositionalEncodingSnapshot> positional_encoding;
    ProbeChoices probe_choices;
    QString error;
  };
  void setFiles(std::vector<AttentionFileEntry> files);
  void onListed();
  void load(QString path);
  void onLoaded();
  /// The chosen sample of the live set, converted (here, or on a worker when large).
  void convertLive();
  void onLiveConverted();
  void acceptLive(SharedPlotData data);
  void showLive();
  void aggregateAsked();
  void onAskedAggregated();
  /// Shows the current step again (a new probe sample or aggregate settings).
  void reshow();
  void setCaptions(ProbeChoices choices);
  /// Leaves an asked input without showing anything else yet.
  void leaveAsked();

  const CurrentRun* run_;
  std::vector<AttentionFileEntry> files_;
  int index_ = 0;
  std::shared_ptr<const ProbeSet> live_probes_;  ///< the newest live set, all samples
  SharedPlotData live_;                          ///< its chosen sample, converted
  SharedPlotData asked_;                         ///< the asked input, kept to aggregate it again
  ProbeChoices probes_;
  int probe_index_ = 0;
  AggregateSettings aggregate_settings_;
  bool has_live_ = false;
  bool live_possible_ = true;
  bool following_ = true;
  bool showing_asked_ = false;
  long long shown_step_ = -1;
  QString load_error_;
  QStringList left_out_;     // snapshots that did not read: kept out of every listing
  QString pending_path_;     // requested while a load was running
  bool list_again_ = false;  // a listing was asked for while one was running
  // Set when a job starts, cleared by its handler: a finished future's handler runs a little
  // later (a queued event), and waitForLoad must wait for the handler, not only the job.
  bool listing_ = false;
  bool loading_ = false;
  QFutureWatcher<LoadResult> watcher_;
  QFutureWatcher<std::vector<AttentionFileEntry>> list_watcher_;
  // Large live probes (a 512-token, 144-head snapshot is ~150 MB of weights) are converted on a
  // worker; a newer one arriving meanwhile replaces the pending one.
  QFutureWatcher<SharedPlotData> live_watcher_;
  bool live_pending_ = false;  ///< a newer set arrived while converting
  bool converting_live_ = false;
  QFutureWatcher<std::pair<int, SharedPlotData>> asked_watcher_;
  int asked_generation_ = 0;  ///< of the newest aggregation of the asked input
  int asked_handled_ = 0;     ///< of the newest one whose result came back
};

}  // namespace ascope
