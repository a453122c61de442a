#include "app/gui/window/run/replay_actions.h"

#include <QAction>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
#include <QScreen>
#include <QSettings>

#include <algorithm>

#include "app/gui/bridge/current_run.h"
#include "app/gui/bridge/engine_bridge.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/curves/curves_presenter.h"
#include "app/gui/views/run/run_presenter.h"
#include "app/gui/views/run/run_progress_view.h"
#include "app/gui/window/dialogs/run_comparison_window.h"
#include "app/gui/window/run/bookmark_controller.h"
#include "app/gui/window/run/run_controller.h"
#include "engine/tasks/registry/task_registry.h"

namespace ascope {
namespace {

/// QSettings key remembering which run a run was last compared with.
QString partnerKey(const QString& folder) {
  return QStringLiteral("compare/partner/") +
         QString::fromLatin1(folder.toUtf8().toBase64(QByteArray::Base64UrlEncoding));
}

/// QSettings key remembering that the comparison of a run was open when the program closed.
QString openKey(const QString& folder) {
  return QStringLiteral("compare/open/") +
         QString::fromLatin1(folder.toUtf8().toBase64(QByteArray::Base64UrlEncoding));
}

}  // namespace

ReplayActions::ReplayActions(CurvesPresenter* curves, AttentionPresenter* attention,
                             const RunProgressView* progress, CurrentRun* run, EngineBridge* bridge,
                             RunController* controller, QWidget* window)
    : QObject(window),
      curves_(curves),
      attention_(attention),
      progress_(progress),
      run_(run),
      bridge_(bridge),
      controller_(controller),
      window_(window) {
  bookmarks_ = new BookmarkController(curves_, attention_, run_, this);
  // The curves' readout gives the figures of a replayed step, the newest while following live.
  connect(attention_, &AttentionPresenter::stepShown, curves,
          [curves](long long step) { curves->setReadoutStep(step); });
  connect(attention_, &AttentionPresenter::liveShown, curves,
          [curves] { curves->setReadoutStep(-1); });
  connect(run_, &CurrentRun::runChanged, curves, [curves] { curves->setReadoutStep(-1); });
  connect(bookmarks_, &BookmarkController::message, this, &ReplayActions::message);
  connect(controller_, &RunController::runOpened, this, &ReplayActions::reopenComparison);
}

void ReplayActions::reopenComparison() {
  if (!remembers_) return;
  const QString folder = run_->folder();
  QSettings settings;
  if (folder.isEmpty() || !settings.value(openKey(folder), false).toBool()) return;
  const QString partner = settings.value(partnerKey(folder)).toString();
  // A partner since deleted is reported by the comparison's own (off-thread) read.
  if (!partner.isEmpty()) compareWith(partner);
}

void ReplayActions::rememberComparisonOpen(bool open) {
  if (remembers_ && !compared_folder_.isEmpty())
    QSettings().setValue(openKey(compared_folder_), open);
}

bool ReplayActions::eventFilter(QObject* watched, QEvent* event) {
  // Closing the program deletes the comparison window without closing it, so the comparison
  // stays remembered as open; only the user's own close forgets it.
  if (watched == comparison_ && event->type() == QEvent::Close) rememberComparisonOpen(false);
  return QObject::eventFilter(watched, event);
}

RunComparisonWindow* ReplayActions::comparisonWindow() const {
  return comparison_;
}

void ReplayActions::addFileActions(QMenu* file) {
  QAction* compare =
      file->addAction(tr("&Compare with run…"), this, &ReplayActions::compareInteractively);
  compare->setToolTip(tr("Open a second run beside the shown one: curves, attention, settings"));
}

void ReplayActions::addRunActions(QMenu* run) {
  QAction* more =
      run->addAction(tr("&Continue training…"), this, &ReplayActions::continueInteractively);
  more->setToolTip(tr("Train the shown run on, in its own folder, from its last checkpoint"));
  const auto update = [this, more] {
    more->setEnabled(!run_->isBusy() && !run_->folder().isEmpty());
  };
  connect(run_, &CurrentRun::stateChanged, more, update);
  connect(run_, &CurrentRun::folderChanged, more, update);
  update();
}

void ReplayActions::addTimelineActions(QMenu* timeline) {
  timeline->addSeparator();
  QAction* add =
      timeline->addAction(tr("Add &bookmark…"), this, &ReplayActions::bookmarkInteractively);
  add->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
  QMenu* list = timeline->addMenu(tr("Bookmar&ks"));
  list->setObjectName(QStringLiteral("bookmarkMenu"));
  connect(list, &QMenu::aboutToShow, this, [this, list] { fillBookmarkMenu(list); });
}

void ReplayActions::fillBookmarkMenu(QMenu* menu) {
  menu->clear();
  if (!bookmarks_->readError().isEmpty()) {
    menu->addAction(bookmarks_->readError())->setEnabled(false);
    return;
  }
  if (bookmarks_->bookmarks().empty()) {
    menu->addAction(tr("No bookmarks in this run"))->setEnabled(false);
    return;
  }
  for (const Bookmark& b : bookmarks_->bookmarks()) {
    const long long step = b.step;
    QString note = QString::fromStdString(b.note).simplified();
    if (note.size() > 60) note = note.left(59) + QStringLiteral("…");
    menu->addAction(tr("Step %1: %2").arg(step).arg(note), this,
                    [this, step] { bookmarks_->jumpTo(step); });
  }
  menu->addSeparator();
  QMenu* remove = menu->addMenu(tr("Remove"));
  for (const Bookmark& b : bookmarks_->bookmarks()) {
    const long long step = b.step;
    remove->addAction(tr("Step %1").arg(step), this,
                      [this, step] { bookmarks_->removeBookmark(step); });
  }
}

void ReplayActions::bookmarkInteractively() {
  const long long step = attention_->shownStep();
  if (run_->folder().isEmpty() || step < 0) {
    Q_EMIT message(tr("Open or train a run first: a bookmark belongs to a step of a run."));
    return;
  }
  bool ok = false;
  const QString note = QInputDialog::getMultiLineText(
      window_, tr("Add bookmark"), tr("Note for step %1:").arg(step), QString(), &ok);
  if (!ok) return;
  const QString error = bookmarks_->addBookmark(step, note);
  Q_EMIT message(error.isEmpty() ? tr("Bookmarked step %1").arg(step) : error);
}

QString ReplayActions::continueTraining(int epochs) {
  const QString folder = run_->folder();
  if (folder.isEmpty()) return tr("Open a run folder first.");
  if (run_->isBusy() || bridge_->isActive()) return tr("The run is still training.");
  TrainingConfig config = run_->config();
  // As `attentionscope-cli train --resume FOLDER --epochs N`: the run's own settings, its folder,
  // its last checkpoint; --epochs replaces a step count the run may have had.
  config.resume = true;
  config.out_dir = folder.toStdString();
  config.interrupt_at_step = 0;
  config.epochs = epochs;
  config.max_steps = 0;
  if (Status s = validateConfig(config); !s.ok()) {
    return tr("%1/config.json: %2").arg(folder, QString::fromStdString(s.error()));
  }
  bookmarks_->whenWritten(
      [this, config, folder, epochs] { startContinued(config, folder, epochs); });
  return {};
}

void ReplayActions::startContinued(const TrainingConfig& config, const QString& folder,
                                   int epochs) {
  // startRun clears the panels for a new run; a continued one keeps the steps it has.
  const CurvesPresenter::History kept = curves_->history();
  const QString error = controller_->startRun(config);
  if (!error.isEmpty()) {
    Q_EMIT message(error);
    return;
  }
  curves_->restore(kept);
  Q_EMIT message(tr("Continuing %1 to %2 epochs").arg(QFileInfo(folder).fileName()).arg(epochs));
}

int ReplayActions::proposedEpochs(const TrainingConfig& config, int epoch_reached,
                                  bool reached_end) {
  // An epoch count decided the run's length: an interrupted run finishes it (epoch 17
  // was proposed to a run that had stopped before its 16th was done), an ended one gets one more.
  if (config.max_steps <= 0) {
    const bool interrupted = !reached_end || epoch_reached < config.epochs;
    return interrupted ? config.epochs : config.epochs + 1;
  }
  // A step count did: one epoch more than the one it stopped in.
  return std::max(1, epoch_reached + 1);
}

void ReplayActions::continueInteractively() {
  const RunProgressView* progress = progress_;
  const RunSummary reached = progress->summary();
  const bool reached_end = !progress->testText().isEmpty();
  const TrainingConfig& config = run_->config();
  const QString where = reached.has_progress ? tr("it %1 at step %2, in epoch %3 of %4")
                                                   .arg(reached_end ? tr("ended") : tr("stopped"))
                                                   .arg(reached.step)
                                                   .arg(reached.epoch)
                                                   .arg(config.epochs)
                                             : tr("it has %1 epochs").arg(config.epochs);
  bool ok = false;
  const int epochs = QInputDialog::getInt(
      window_, tr("Continue training"),
      tr("Train %1 on until epoch (%2):").arg(QFileInfo(run_->folder()).fileName(), where),
      proposedEpochs(config, reached.epoch, reached_end), 1, 1'000'000, 1, &ok);
  if (!ok) return;
  const QString error = continueTraining(epochs);
  if (!error.isEmpty()) Q_EMIT message(error);
}

QString ReplayActions::compareWith(const QString& dir) {
  const QString folder = run_->folder();
  if (folder.isEmpty()) return tr("Open a run first; it becomes A of the comparison.");
  if (!comparison_) {
    comparison_ = new RunComparisonWindow(window_);
    comparison_->setAttribute(Qt::WA_DeleteOnClose);
    comparison_->installEventFilter(this);
    // The comparison follows the step the main window shows (its timeline, a curve clicked).
    connect(attention_, &AttentionPresenter::stepShown, comparison_,
            [this](long long step) { comparison_->showNearestStep(step); });
    connect(comparison_, &RunComparisonWindow::failed, this, [this](const QString& text) {
      rememberComparisonOpen(false);
      Q_EMIT message(tr("Cannot compare: %1").arg(text));
    });
  }
  compared_folder_ = folder;
  // Remembered so that the next comparison of this run starts at the same partner, and comes
  // back by itself if it is still open when the program closes.
  if (remembers_) QSettings().setValue(partnerKey(folder), QFileInfo(dir).absoluteFilePath());
  rememberComparisonOpen(true);
  comparison_->setSmoothing(curves_->smoothing());
  comparison_->compare(folder, dir, attention_->shownStep());
  comparison_->show();
  comparison_->raise();
  return {};
}

RunComparisonWindow* ReplayActions::compareAndWait(const QString& dir, const QSize& size) {
  if (!compareWith(dir).isEmpty()) return nullptr;
  // The size asked for, within the screen it is on with its frame (as the window fits itself
  // when opened): a window as large as the screen put its title bar or its edge off it.
  const QScreen* screen = comparison_->screen();
  const QRect room = screen ? screen->availableGeometry() : QRect(QPoint(0, 0), size);
  const QSize frame = comparison_->frameGeometry().size() - comparison_->size();
  comparison_->resize(size.boundedTo(room.size() - frame));
  // move() places the frame: centred, its top-left corner on the screen.
  const QSize whole = comparison_->size() + frame;
  comparison_->move(room.x() + std::max(0, (room.width() - whole.width()) / 2),
                    room.y() + std::max(0, (room.height() - whole.height()) / 2));
  comparison_->waitForLoad();
  comparison_->replotNow();
  return comparison_;
}

void ReplayActions::compareInteractively() {
  const QString folder = run_->folder();
  if (folder.isEmpty()) {
    Q_EMIT message(tr("Open a run first; it becomes A of the comparison."));
    return;
  }
  QSettings settings;
  const QString partner = settings.value(partnerKey(folder)).toString();
  const QString start = partner.isEmpty() ? QFileInfo(folder).absolutePath() : partner;
  const QString dir =
      QFileDialog::getExistingDirectory(window_, tr("Compare with run folder"), start);
  if (dir.isEmpty()) return;
  const QString error = compareWith(dir);
  if (!error.isEmpty()) Q_EMIT message(error);
}

}  // namespace ascope
