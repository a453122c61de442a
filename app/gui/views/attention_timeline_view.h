#pragma once
// The Attention dock: the per-head grid of the attention panel under a timeline of the run's
// stored snapshots. While training, it follows the newest probe ("live"); dragging the slider back
// shows an earlier snapshot from the run folder (read off the GUI thread, newest request wins).
#include <QFutureWatcher>
#include <QWidget>

#include <vector>

#include "engine/run/run_reader.h"
#include "engine/train/events.h"
#include "widgets/attention_plot_data.h"

class QLabel;
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

  /// A probe of the running training; shown at once while following live.
  void setLiveSnapshot(const AttentionSnapshot& snapshot);
  /// Re-reads the list of the run folder's snapshots (e.g. once the run has ended).
  void refreshFiles();
  /// An opened run: its timeline and the snapshot to show first.
  void showRun(std::vector<AttentionFileEntry> files, const AttentionPlotData& newest);
  void clear();

  bool isFollowingLive() const { return following_; }
  int snapshotCount() const { return static_cast<int>(files_.size()); }
  /// Blocks until a pending load has finished (tests, scripted mode).
  void waitForLoad();

 Q_SIGNALS:
  /// A snapshot from the timeline (not a live one) is now shown.
  void snapshotShown(long long step);

 private:
  struct LoadResult {
    QString path;
    std::optional<AttentionPlotData> data;
    QString error;
  };
  void onSliderMoved(int index);
  void load(QString path);
  void onLoaded();
  void updateLabel();
  void showSnapshot(const AttentionPlotData& snapshot);

  const CurrentRun* run_;
  std::vector<AttentionFileEntry> files_;
  AttentionPlotData live_;
  bool has_live_ = false;
  bool following_ = true;
  long long shown_step_ = -1;
  bool balanced_ = false;      // grid and enlarged head share the width once data is there
  bool group_chosen_ = false;  // the first snapshot of a run picked its group
  QString pending_path_;       // requested while a load was running
  QFutureWatcher<LoadResult> watcher_;

  QSlider* slider_ = nullptr;
  QLabel* label_ = nullptr;
  QToolButton* live_button_ = nullptr;
  AttentionHeadGridPanel* panel_ = nullptr;
};

}  // namespace ascope
