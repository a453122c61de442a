#pragma once
// Feeds the docks, each through its owner: from the bridge while a run trains (live), or from a
// run folder opened for inspection (read on a worker thread). Also keeps the window title (task
// and run folder). The run's task, settings, folder and state live in CurrentRun; this class only
// sets them for opened runs and reacts to them.
#include <QFutureWatcher>
#include <QHash>
#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

#include "engine/core/run_folder_lock.h"
#include "engine/runfolder/run_folder_tail.h"
#include "engine/runfolder/run_reader.h"
#include "engine/vocabulary/training_config.h"
#include "widgets/attention/attention_run_maxima.h"

namespace ascope {

class AppLog;
class AttentionTimelineView;
class CurrentRun;
class CurvesPresenter;
class DecodingPresenter;
class EncodingPresenter;
class EngineBridge;
class HeadAnalysisController;
class RunFolderFollower;
class RunPanel;
class SamplePresenter;

/// The owners of the docks a run feeds.
struct RunDocks {
  RunPanel* run = nullptr;  ///< the Run dock: settings, progress
  CurvesPresenter* curves = nullptr;
  AttentionTimelineView* attention = nullptr;
  EncodingPresenter* encoding = nullptr;
  SamplePresenter* sample = nullptr;
  DecodingPresenter* decoding = nullptr;
  HeadAnalysisController* heads = nullptr;  ///< the Heads and Ablation docks
  AppLog* log = nullptr;
};

class RunController : public QObject {
  Q_OBJECT

 public:
  RunController(const RunDocks& docks, CurrentRun* run, EngineBridge* bridge,
                QObject* parent = nullptr);
  ~RunController() override;

  /// Clears the panels and starts `config`; returns a message for a person on failure.
  QString startRun(const TrainingConfig& config, bool step_only = false);
  /// Who asked for a run folder to be opened.
  enum class OpenOrigin {
    kAsked,       ///< the user (File → Open, --open): a failure is openFailed
    kRemembered,  ///< the last run of an earlier session: a failure is rememberedRunFailed
  };
  /// Reads `dir` on a worker thread, then shows it (runOpened, openFailed or rememberedRunFailed
  /// follows).
  void openRun(const QString& dir, OpenOrigin origin = OpenOrigin::kAsked);
  bool isOpening() const { return open_watcher_.isRunning(); }

  QString title() const;
  /// Follows an opened run while another process writes it (RunFolderFollower).
  RunFolderFollower* follower() const { return follower_; }

 Q_SIGNALS:
  void titleChanged(const QString& title);
  void runOpened(const QString& dir);
  void openFailed(const QString& message);
  /// The remembered last run did not open (moved, damaged, refused): the window goes on without
  /// it, and says so without a dialog in the way.
  void rememberedRunFailed(const QString& dir, const QString& message);
  /// A short note for the status bar.
  void message(const QString& text);

 private:
  struct OpenResult {
    QString dir;
    OpenOrigin origin = OpenOrigin::kAsked;
    std::optional<OpenedRun> run;
    QString error;
    /// Per attention group, each head's largest weight over every stored snapshot: the run's
    /// colour scale, so that scrubbing compares like with like from the first snapshot shown.
    QHash<QString, AttentionRunMaxima> group_max;
    /// The snapshots that did not decode: left out of the timeline, with a note.
    QStringList left_out;
    /// Who writes the folder (seen before it was read) and, when someone does, what the reading
    /// did not see yet is read from `tail` on.
    RunFolderWriterState writer;
    std::shared_ptr<RunFolderTail> tail;
  };
  void connectBridge();
  /// The timeline is the one time axis: every dock follows the step it shows.
  void connectTimeline();
  void setCursors(long long step);
  void clearPanels();
  void onFailure(const QString& text);
  void onOpened();
  /// Another process writes the opened run: its growth comes in through the follower.
  void startFollowing(const OpenResult& result, const OpenedRun& opened);
  void showFollowedNews(const RunFolderNews& news);
  void onWriterEnded(const RunFolderWriterState& state);
  void onFolderGone();
  /// The accuracy curve's name for the shown run's task.
  void nameAccuracy();

  RunDocks docks_;
  CurrentRun* run_;
  EngineBridge* bridge_;
  QFutureWatcher<OpenResult> open_watcher_;
  RunFolderFollower* follower_ = nullptr;
  // The followed run's head statistics so far (the Heads dock is redrawn from all of them).
  std::vector<HeadStatsRow> followed_head_rows_;
};

}  // namespace ascope
