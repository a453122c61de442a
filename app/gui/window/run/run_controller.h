#pragma once
// Feeds the docks through one path: whatever the run's source — the bridge while it trains here
// (live), a run folder opened for inspection (read on a worker thread, one large piece), or a
// folder another process writes (followed) — becomes RunNews, handed to every dock owner in its
// list (RunNewsReader). Also keeps the window title (task and run folder). The run's task,
// settings, folder and state live in CurrentRun; this class only sets them for opened runs and
// reacts to them.
#include <QFutureWatcher>
#include <QHash>
#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

#include "app/gui/views/news/run_news.h"
#include "engine/core/run_folder_lock.h"
#include "engine/runfolder/run_folder_tail.h"
#include "engine/runfolder/run_reader.h"
#include "engine/vocabulary/task_descriptor.h"
#include "engine/vocabulary/training_config.h"
#include "widgets/attention/attention_run_maxima.h"

namespace ascope {

class AttentionPresenter;
class CurrentRun;
class EngineBridge;
class RunFolderFollower;
class RunNewsReader;

class RunController : public QObject {
  Q_OBJECT

 public:
  /// `readers`: every dock's owner, in the order news reaches them; `timeline` (one of them) is
  /// asked whether it follows the live probe and which probe sample it shows.
  RunController(std::vector<RunNewsReader*> readers, AttentionPresenter* timeline, CurrentRun* run,
                EngineBridge* bridge, QObject* parent = nullptr);
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

  /// A dock owner created after the controller joins the list (news reaches it last).
  void addReader(RunNewsReader* reader) { readers_.push_back(reader); }
  /// Every dock with a step cursor moves it to `step` (-1: none): the step the timeline shows.
  void followStep(long long step);

  QString title() const;
  /// Follows an opened run while another process writes it (RunFolderFollower).
  RunFolderFollower* follower() const { return follower_; }

 Q_SIGNALS:
  void titleChanged(const QString& title);
  /// A run of `task` is about to be shown (started or opened): names that depend on the task
  /// follow (the accuracy curve's name).
  void runStarting(const TaskDescriptor* task);
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
  /// An empty piece of news from `source` about the shown run.
  RunNews news(RunNews::Source source) const;
  void dispatch(const RunNews& news);
  /// The run's state with a line for people, as news from `source`.
  void dispatchState(RunNews::Source source, TrainerState state, const QString& text);
  void clearPanels();
  void onFailure(const QString& text);
  void onOpened();
  /// Another process writes the opened run: its growth comes in through the follower.
  void startFollowing(const OpenResult& result, const OpenedRun& opened);
  void showFollowedNews(const RunFolderNews& folder_news);
  void onWriterEnded(const RunFolderWriterState& state);
  void onFolderGone();
  std::vector<RunNewsReader*> readers_;
  AttentionPresenter* timeline_;
  CurrentRun* run_;
  EngineBridge* bridge_;
  QFutureWatcher<OpenResult> open_watcher_;
  RunFolderFollower* follower_ = nullptr;
};

}  // namespace ascope
