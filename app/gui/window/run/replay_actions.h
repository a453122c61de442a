#pragma once
// What a lecturer does with a run once it is trained: continue it for more epochs (as
// `attentionscope-cli train --resume` does), put bookmarks with notes on its steps, and compare it
// with another run. The main window only adds these actions to its menus.
#include <QObject>
#include <QPointer>
#include <QString>

#include "engine/vocabulary/training_config.h"

class QEvent;
class QMenu;
class QSize;
class QWidget;

namespace ascope {

class AttentionPresenter;
class BookmarkController;
class CurrentRun;
class CurvesPresenter;
class RunProgressView;
class EngineBridge;
class RunComparisonWindow;
class RunController;

class ReplayActions : public QObject {
  Q_OBJECT

 public:
  /// `window` parents the dialogs and the comparison window; `curves` and `attention` are the
  /// docks a replayed step moves, `progress` the run's figures a continued run starts from.
  ReplayActions(CurvesPresenter* curves, AttentionPresenter* attention,
                const RunProgressView* progress, CurrentRun* run, EngineBridge* bridge,
                RunController* controller, QWidget* window);

  /// File → Compare with run…
  void addFileActions(QMenu* file);
  /// Run → Continue training…
  void addRunActions(QMenu* run);
  /// Timeline → Add bookmark…, Bookmarks ▸
  void addTimelineActions(QMenu* timeline);

  /// Trains the shown run on in its own folder until `epochs` epochs (more than it had, or the
  /// same to finish an interrupted run), from its last checkpoint; the curves keep the steps
  /// trained so far. Starts once a bookmark being saved is on disk. Returns a message for a
  /// person when the run cannot be continued, else "".
  QString continueTraining(int epochs);
  /// What Continue training proposes: the remaining epochs of a run an epoch count decided and
  /// that stopped before its end (`reached_end`: it has its final test figure); one epoch more
  /// than it has otherwise.
  static int proposedEpochs(const TrainingConfig& config, int epoch_reached, bool reached_end);
  /// Opens (or reuses) the comparison window: the shown run as A, `dir` as B.
  QString compareWith(const QString& dir);
  /// Scripted mode: compares with `dir` in a window of `size` and waits until it is shown.
  RunComparisonWindow* compareAndWait(const QString& dir, const QSize& size);

  /// For a person at the screen (off in tests and scripted runs, which leave the user's settings
  /// alone): remembers in the settings which run each run was compared with and whether the
  /// comparison was still open when the program closed; opening that run again brings it back.
  void setRemembersComparisons(bool on) { remembers_ = on; }

  BookmarkController* bookmarks() const { return bookmarks_; }
  /// The comparison window while it is open; null before the first comparison or once closed.
  RunComparisonWindow* comparisonWindow() const;

 Q_SIGNALS:
  void message(const QString& text);

 protected:
  /// Sees the comparison window closed by the user (not with the program).
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  /// Reopens the comparison a run had open when the program closed.
  void reopenComparison();
  void rememberComparisonOpen(bool open);
  void continueInteractively();
  void startContinued(const TrainingConfig& config, const QString& folder, int epochs);
  void compareInteractively();
  void bookmarkInteractively();
  void fillBookmarkMenu(QMenu* menu);

  CurvesPresenter* curves_;
  AttentionPresenter* attention_;
  const RunProgressView* progress_;
  CurrentRun* run_;
  EngineBridge* bridge_;
  RunController* controller_;
  QWidget* window_;
  BookmarkController* bookmarks_ = nullptr;
  QPointer<RunComparisonWindow> comparison_;
  QString compared_folder_;  ///< run A of the comparison shown
  bool remembers_ = false;
};

}  // namespace ascope
