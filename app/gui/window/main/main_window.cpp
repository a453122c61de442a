#include "app/gui/window/main/main_window.h"

#include <spdlog/spdlog.h>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include "app/gui/bridge/current_run.h"
#include "app/gui/bridge/engine_bridge.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/errors/errors_presenter.h"
#include "app/gui/views/log/log_presenter.h"
#include "app/gui/window/dialogs/pretrained_inspection_window.h"
#include "app/gui/window/export/attention_video_actions.h"
#include "app/gui/window/export/export_actions.h"
#include "app/gui/window/export/handout_export_actions.h"
#include "app/gui/window/layout/dock_layout.h"
#include "app/gui/window/layout/window_placement.h"
#include "app/gui/window/lecture/presentation_controls.h"
#include "app/gui/window/lecture/presentation_mode.h"
#include "app/gui/window/lecture/window_on_screen.h"
#include "app/gui/window/lesson/lesson_actions.h"
#include "app/gui/window/lesson/lesson_bar.h"
#include "app/gui/window/lesson/lesson_keys.h"
#include "app/gui/window/lesson/lesson_player.h"
#include "app/gui/window/main/help_actions.h"
#include "app/gui/window/main/run_key_filter.h"
#include "app/gui/window/run/remembered_settings.h"
#include "engine/device/device_query.h"
#ifdef ATTENTIONSCOPE_HAS_DOWNLOAD
#include "app/gui/window/dialogs/get_dataset_dialog.h"
#include "app/gui/window/run/pretrained_model_actions.h"
#endif
#include "app/gui/views/computation/computation_presenter.h"
#include "app/gui/views/curves/curves_presenter.h"
#include "app/gui/views/decoding/decoding_presenter.h"
#include "app/gui/views/encoding/encoding_presenter.h"
#include "app/gui/views/heads/heads_presenter.h"
#include "app/gui/views/news/run_news_reader.h"
#include "app/gui/views/run/live_learning_rate_box.h"
#include "app/gui/views/run/run_control_bar.h"
#include "app/gui/views/run/run_presenter.h"
#include "app/gui/views/run/run_progress_strip.h"
#include "app/gui/views/run/run_progress_view.h"
#include "app/gui/views/sample/probe_sample_picker.h"
#include "app/gui/views/sample/sample_presenter.h"
#include "app/gui/views/sample/try_it_box.h"
#include "app/gui/window/run/live_run_controls.h"
#include "app/gui/window/run/long_run_check.h"
#include "app/gui/window/run/replay_actions.h"
#include "app/gui/window/run/run_controller.h"
#include "app/gui/window/run/timeline_links.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/common/log_panel.h"
#include "widgets/curves/metric_curve_panel.h"
#include "widgets/decoding/decoding_step_view.h"
#include "widgets/encoding/positional_encoding_panel.h"
#include "widgets/samples/sample_panel.h"
#include "widgets/tables/error_analysis_panel.h"
#include "widgets/tables/head_ablation_table.h"
#include "widgets/tables/head_stats_grid_panel.h"

// Resources of a static library must be initialised by name, outside any namespace.
static void initResources() {
  Q_INIT_RESOURCE(resources);
}

namespace ascope {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  initResources();
  setWindowIcon(QIcon(QStringLiteral(":/icons/attentionscope.svg")));
  run_ = new CurrentRun(this);
  bridge_ = new EngineBridge(run_, this);
  keys_ = new RunKeyFilter(this);
  createPresenters();
  createRunToolBar();  // before the controllers: they take its controls
  // Error analysis: the run scored on a data set, its errors under the scope.
  errors_ = new ErrorsPresenter(attention_, sample_, run_, this);
  connect(errors_, &ErrorsPresenter::message, this, &MainWindow::showMessage);
  // Every dock's owner, in the order a run's news reaches them: the Sample and Positional encoding
  // docks take a probe's sample and encoding before the Attention dock shows that probe.
  readers_ = {run_presenter_, curves_, encoding_, sample_, attention_,
              decoding_,      heads_,  log_,      errors_, computation_};
  controller_ = new RunController(readers_, attention_, run_, bridge_, this);
  new TimelineLinks(attention_, curves_, sample_, encoding_, decoding_, controller_, this);
  connect(controller_, &RunController::runStarting, curves_, &CurvesPresenter::nameAccuracy);
  // The run's time as measured on this device goes to the log (the toolbar shows the ETA).
  connect(run_presenter_->progressView(), &RunProgressView::projected, this,
          [](const QString& note) { spdlog::info("{}", note.toStdString()); });
  exporter_ =
      new ExportActions(attention_, encoding_, curves_,
                        QList<const RunNewsReader*>(readers_.begin(), readers_.end()), run_, this);
  new LiveRunControls(controls_, run_presenter_, bridge_, this);
  createDocks();
  createMenus();

  // Start goes through the estimate of how long the run will take (asks when interactive).
  long_run_check_ = new LongRunCheck(this, this);
  connect(run_presenter_, &RunPresenter::startRequested, long_run_check_, &LongRunCheck::check);
  connect(long_run_check_, &LongRunCheck::declined, this, &MainWindow::showMessage);
  connect(long_run_check_, &LongRunCheck::accepted, controller_,
          [this](const TrainingConfig& config, bool step_only) {
            controller_->startRun(config, step_only);
          });
  connect(run_presenter_, &RunPresenter::pauseRequested, bridge_, &EngineBridge::pause);
  connect(run_presenter_, &RunPresenter::resumeRequested, bridge_, &EngineBridge::resume);
  connect(run_presenter_, &RunPresenter::stepRequested, bridge_, &EngineBridge::stepOnce);
  connect(run_presenter_, &RunPresenter::stopRequested, bridge_, &EngineBridge::stop);
  connect(controller_, &RunController::titleChanged, this, &QMainWindow::setWindowTitle);
  connect(controller_, &RunController::message, this, &MainWindow::showMessage);
  connect(controller_, &RunController::openFailed, this, [this](const QString& text) {
    if (interactive_) QMessageBox::warning(this, tr("Cannot open run"), text);
  });
  // The last run of an earlier session: said in the status bar (and the log), no dialog at start.
  connect(controller_, &RunController::rememberedRunFailed, this,
          [this](const QString& dir, const QString& text) {
            showMessage(tr("The last run, %1, did not open: %2").arg(dir, text));
          });
  connect(controller_, &RunController::runOpened, this,
          [this](const QString& dir) { showMessage(tr("Opened %1").arg(dir)); });
  connect(exporter_, &ExportActions::message, this, &MainWindow::showMessage);
  const auto show_dock = [this](const QString& name) {
    if (QDockWidget* dock = docks_->dock(name)) {
      dock->show();
      dock->raise();
    }
  };
  connect(heads_, &HeadsPresenter::dockWanted, this, show_dock);
  // A weight clicked in the Attention dock opens its computation.
  connect(computation_, &ComputationPresenter::dockWanted, this, show_dock);
  // The input Try it put under the scope is the one the Computation dock recomputes.
  TryItBox* try_it = sample_->tryIt();
  connect(try_it, &TryItBox::inputExamined, computation_, [this, try_it] {
    computation_->setAskedInput({QString(), try_it->askedText(), QString(), try_it->askedImage()});
  });
  connect(run_presenter_, &RunPresenter::getDatasetRequested, this, &MainWindow::openGetDataset);
  // Before any run exists, "Try it" asks for the input of the task chosen in the Run panel.
  auto follow_task = [this] {
    sample_->tryIt()->setPendingTask(run_presenter_->taskBox()->currentData().toString());
  };
  connect(run_presenter_, &RunPresenter::configEdited, this, follow_task);
  follow_task();
  offerDownloadedDatasets();
  setWindowTitle(controller_->title());
  resize(1600, 1000);
  docks_->resetLayout();
  statusBar()->showMessage(tr("Pick a task and press Start (F5), or open a run folder (Ctrl+O)."));
  // The hint is for a window that shows nothing yet.
  connect(run_, &CurrentRun::runChanged, statusBar(), &QStatusBar::clearMessage);
}

MainWindow::~MainWindow() {
  bridge_->shutdown();  // joins the trainer before the panels it feeds go away
  // A top-level child (the run comparison) closing below would report a focus change to the
  // Timeline keys' slot after the actions and docks it reads have been deleted.
  disconnect(qApp, &QApplication::focusChanged, this, nullptr);
}

void MainWindow::createPresenters() {
  // One query of the devices: whether CUDA is offered is the GPU entry's usable.
  const std::vector<TrainingDevice> devices = trainingDevices();
  run_presenter_ = new RunPresenter(run_, devices.back().usable, this);
  run_presenter_->describeDevices(devices);
  curves_ = new CurvesPresenter(this);
  attention_ = new AttentionPresenter(run_, this);
  encoding_ = new EncodingPresenter(this);
  sample_ = new SamplePresenter(run_, this);
  decoding_ = new DecodingPresenter(this);
  heads_ = new HeadsPresenter(attention_, run_, this);
  log_ = new LogPresenter(this);
  computation_ = new ComputationPresenter(run_, attention_, this);
}

void MainWindow::createRunToolBar() {
  RunPresenter* run = run_presenter_;
  controls_ = new RunControlBar(
      run_, {run->startAction(), run->pauseAction(), run->stepAction(), run->stopAction()}, this);
  auto* bar = new QToolBar(tr("Run controls"), this);
  bar->setObjectName(QStringLiteral("runToolBar"));
  // Fixed in place and never hidden: the one place the controls always are.
  bar->setMovable(false);
  bar->setFloatable(false);
  bar->setAllowedAreas(Qt::TopToolBarArea);
  bar->toggleViewAction()->setEnabled(false);
  bar->toggleViewAction()->setVisible(false);
  bar->addWidget(controls_);
  addToolBar(Qt::TopToolBarArea, bar);

  // The run's state where a lecturer looks: the toolbar's badge, and the status bar's right end.
  auto* state = new QLabel(this);
  state->setObjectName(QStringLiteral("runStatusLine"));
  statusBar()->addPermanentWidget(state);
  const auto show = [this, state](const RunSummary& summary) {
    controls_->progress()->setSummary(summary);
    state->setText(summary.statusLine());
  };
  connect(run->progressView(), &RunProgressView::summaryChanged, this, show);
  show(run->progressView()->summary());
  connect(controls_->liveLearningRate(), &LiveLearningRateBox::statusChanged, this,
          [this](const QString& text) { statusBar()->showMessage(text, 10000); });
}

void MainWindow::createDocks() {
  docks_ = new DockLayout(this);
  // Scrollable, so that the window fits small screens (1366 × 768) with every dock shown.
  auto* run = new QScrollArea(this);
  run->setWidget(run_presenter_);
  run->setWidgetResizable(true);
  run->setFrameShape(QFrame::NoFrame);
  run->setMinimumWidth(run_presenter_->minimumSizeHint().width() +
                       run->verticalScrollBar()->sizeHint().width());
  docks_->addDock(QStringLiteral("runDock"), tr("Run"), run);
  docks_->addDock(QStringLiteral("lossDock"), tr("Loss"), curves_->loss());
  docks_->addDock(QStringLiteral("accuracyDock"), tr("Accuracy"), curves_->accuracy());
  docks_->addDock(QStringLiteral("attentionDock"), tr("Attention"), attention_);
  docks_->addDock(QStringLiteral("positionalEncodingDock"), tr("Positional encoding"),
                  encoding_->panel());
  docks_->addDock(QStringLiteral("sampleDock"), tr("Sample"), sample_->dockWidget());
  docks_->addDock(QStringLiteral("decodingDock"), tr("Decoding"), decoding_->dockWidget());
  docks_->addDock(QStringLiteral("computationDock"), tr("Computation"), computation_->dockWidget());
  docks_->addDock(QStringLiteral("headsDock"), tr("Heads"), heads_->heads());
  docks_->addDock(QStringLiteral("ablationDock"), tr("Ablation"), heads_->ablation());
  docks_->addDock(QStringLiteral("errorsDock"), tr("Errors"), errors_->panel());
  docks_->addDock(QStringLiteral("logDock"), tr("Log"), log_->panel());
}

QJsonObject MainWindow::dockReport() const {
  QJsonObject report;
  for (const RunNewsReader* reader : readers_) {
    const QJsonObject part = reader->report();
    for (auto it = part.begin(); it != part.end(); ++it) report.insert(it.key(), it.value());
  }
  return report;
}

bool MainWindow::raiseDock(const QString& title) {
  bool found = false;
  for (QDockWidget* dock : docks_->docks()) {
    if (dock->windowTitle() != title.trimmed()) continue;
    dock->show();
    dock->raise();
    found = true;
  }
  return found;
}

void MainWindow::createMenus() {
  // Continue, bookmark and compare runs (lecture mode): its actions sit in three menus.
  replay_ = new ReplayActions(curves_, attention_, run_presenter_->progressView(), run_, bridge_,
                              controller_, this);
  connect(replay_, &ReplayActions::message, this, &MainWindow::showMessage);
  createFileMenu(replay_);
  createRunMenu(replay_);
  createTimelineMenu(replay_);
  createViewMenu();
  createLessonMenu();
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  (new HelpActions(this))->fillMenu(help);
}

void MainWindow::createLessonMenu() {
  lesson_player_ = new LessonPlayer({controller_, run_, attention_, sample_,
                                     [this](const QString& title) { return raiseDock(title); }},
                                    this);
  lesson_actions_ = new LessonActions(lesson_player_, this);
  connect(lesson_actions_, &LessonActions::message, this, &MainWindow::showMessage);
  connect(lesson_player_, &LessonPlayer::momentShown, this,
          [this](int index, const QString& problem) {
            if (!problem.isEmpty()) showMessage(tr("Moment %1: %2").arg(index + 1).arg(problem));
          });
  lesson_actions_->addTo(menuBar()->addMenu(tr("&Lesson")));
  // On a row of its own under the run's controls: the question is read from the back row.
  addToolBarBreak(Qt::TopToolBarArea);
  addToolBar(Qt::TopToolBarArea, new LessonBar(lesson_player_, this));
  qApp->installEventFilter(new LessonKeys(lesson_player_, this));
}

void MainWindow::createFileMenu(ReplayActions* replay) {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open run folder…"), this, &MainWindow::openRunInteractively);
  open->setShortcut(QKeySequence::Open);
  replay->addFileActions(file);
#ifdef ATTENTIONSCOPE_HAS_DOWNLOAD
  file->addAction(tr("&Get dataset…"), this,
                  [this] { openGetDataset(run_presenter_->taskBox()->currentData().toString()); });
  auto* models = new PretrainedModelActions(run_presenter_, this);
  connect(models, &PretrainedModelActions::message, this, &MainWindow::showMessage);
  models->offerDownloadedModels();
  file->addAction(models->getModelAction());
#endif
  // Inspect without training: a pretrained model reads a sentence, every head shown.
  inspection_ = new PretrainedInspectionWindow(attention_, run_presenter_->modelChoice(), this);
  connect(inspection_, &PretrainedInspectionWindow::inputShown, computation_,
          &ComputationPresenter::setAskedInput);
  file->addAction(tr("&Inspect pretrained model…"), inspection_, &PretrainedInspectionWindow::open);
  file->addSeparator();
  QAction* export_all =
      file->addAction(tr("&Export all panels…"), exporter_, &ExportActions::exportAllInteractively);
  export_all->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  QAction* metrics = file->addAction(tr("Export &metrics CSV…"), this, [this] {
    exporter_->exportMetricsInteractively(run_->folder());
  });
  metrics->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
  QAction* attention = file->addAction(tr("Export &attention CSV…"), exporter_,
                                       &ExportActions::exportAttentionInteractively);
  attention->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
  // Attention in motion: the run's snapshots as a GIF or MP4.
  video_ = new AttentionVideoActions(attention_, run_, this);
  connect(video_, &AttentionVideoActions::message, this, &MainWindow::showMessage);
  file->addAction(video_->action());
  // The lecture after the lecture: the shown run as one offline page for students.
  auto* handout = new HandoutExportActions(run_, this);
  connect(handout, &HandoutExportActions::message, this, &MainWindow::showMessage);
  file->addAction(handout->action());
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
}

void MainWindow::createRunMenu(ReplayActions* replay) {
  QMenu* run = menuBar()->addMenu(tr("&Run"));
  run->addActions({run_presenter_->startAction(), run_presenter_->pauseAction(),
                   run_presenter_->stepAction(), run_presenter_->stopAction()});
  replay->addRunActions(run);
  run->addSeparator();
  run->addAction(errors_->evaluateAction());
}

void MainWindow::createTimelineMenu(ReplayActions* replay) {
  // The run's one time axis: every dock follows the snapshot the timeline shows. Window-wide keys,
  // except where a focused widget uses them itself: text fields keep theirs, and ←/→ change the
  // head while the attention panel has focus (its own shortcuts; two enabled shortcuts on one
  // key would cancel each other out).
  QMenu* timeline = menuBar()->addMenu(tr("&Timeline"));
  AttentionPresenter* attention_view = attention_;
  const auto add_step = [&](const QString& text, const QKeySequence& key, auto slot) {
    QAction* action = timeline->addAction(text, attention_view, slot);
    action->setShortcut(key);
    return action;
  };
  QAction* previous = add_step(tr("&Previous snapshot"), QKeySequence(Qt::Key_Left),
                               [attention_view] { attention_view->stepBy(-1); });
  QAction* next = add_step(tr("&Next snapshot"), QKeySequence(Qt::Key_Right),
                           [attention_view] { attention_view->stepBy(1); });
  QAction* first = add_step(tr("&First snapshot"), QKeySequence(Qt::Key_Home),
                            [attention_view] { attention_view->showFirst(); });
  QAction* last = add_step(tr("&Last snapshot"), QKeySequence(Qt::Key_End),
                           [attention_view] { attention_view->showLast(); });
  add_step(tr("P&lay / pause"), QKeySequence(Qt::Key_P),
           [attention_view] { attention_view->setPlaying(!attention_view->isPlaying()); });
  add_step(tr("&Back to the run"), QKeySequence(Qt::Key_Escape),
           [attention_view] { attention_view->returnToRun(); });
  replay->addTimelineActions(timeline);
  // The attention panel takes ←/→ for its heads; the Decoding dock ←/→/Home/End for its steps.
  QWidget* heads = attention_view->panel();
  QWidget* decoding = decoding_->dockWidget();
  connect(qApp, &QApplication::focusChanged, this,
          [previous, next, first, last, heads, decoding](QWidget*, QWidget* now) {
            const auto within = [now](QWidget* w) {
              return now != nullptr && (now == w || w->isAncestorOf(now));
            };
            const bool in_decoding = within(decoding);
            previous->setEnabled(!within(heads) && !in_decoding);
            next->setEnabled(!within(heads) && !in_decoding);
            first->setEnabled(!in_decoding);
            last->setEnabled(!in_decoding);
          });
}

void MainWindow::createViewMenu() {
  QMenu* view = menuBar()->addMenu(tr("&View"));
  // Workspaces: the docks arranged for watching a run train or for studying its attention, at
  // sizes for this window; Presentation (below) is the third, the projector's.
  QMenu* workspaces = view->addMenu(tr("&Workspace"));
  const auto add_workspace = [&](const QString& id, const QString& text, QKeySequence key) {
    QAction* action =
        workspaces->addAction(text, docks_, [this, id] { docks_->showWorkspace(id); });
    action->setObjectName(id + QStringLiteral("WorkspaceAction"));
    action->setShortcut(key);
  };
  add_workspace(QStringLiteral("train"), tr("&Train: settings, curves, attention"),
                QKeySequence(Qt::CTRL | Qt::Key_1));
  add_workspace(QStringLiteral("inspect"), tr("&Inspect: attention, heads, ablation"),
                QKeySequence(Qt::CTRL | Qt::Key_2));
  QAction* reset = view->addAction(tr("&Reset layout"), docks_,
                                   [this] { docks_->showWorkspace(docks_->currentWorkspace()); });
  reset->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
  view->addSeparator();
  docks_->fillViewMenu(view);
  presentation_ = new PresentationControls(this, docks_);
  // Entering or leaving presentation moved the focus into the Loss dock's Smoothing box, where
  // the next Space erased the value instead of pausing.
  connect(presentation_->presentation(), &PresentationMode::activeChanged, keys_,
          &RunKeyFilter::leaveTextField);
  view->addSeparator();
  presentation_->fillViewMenu(view);
}

void MainWindow::openRunInteractively() {
  QSettings settings;
  const QString dir = QFileDialog::getExistingDirectory(
      this, tr("Open run folder"), settings.value(QStringLiteral("open/folder")).toString());
  if (dir.isEmpty()) return;
  settings.setValue(QStringLiteral("open/folder"), QFileInfo(dir).absolutePath());
  controller_->openRun(dir);
}

void MainWindow::openGetDataset(const QString& task) {
#ifdef ATTENTIONSCOPE_HAS_DOWNLOAD
  Expected<DatasetCatalog> catalog = DatasetCatalog::loadDefault();
  if (!catalog.ok()) {
    const QString text = QString::fromStdString(catalog.error());
    showMessage(text);
    if (interactive_) QMessageBox::warning(this, tr("Get dataset"), text);
    return;
  }
  auto* dialog = new GetDatasetDialog(std::move(*catalog), task, {}, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &GetDatasetDialog::datasetReady, this,
          [this](const QString& dataset_task, const QString& folder) {
            run_presenter_->setTask(dataset_task);
            run_presenter_->setDataSource(folder);
            showMessage(tr("Dataset ready: %1").arg(folder));
          });
  dialog->open();
#else
  Q_UNUSED(task);
  showMessage(tr("This build has no downloader (ATTENTIONSCOPE_WITH_DOWNLOAD=OFF)."));
#endif
}

void MainWindow::offerDownloadedDatasets() {
#ifdef ATTENTIONSCOPE_HAS_DOWNLOAD
  const Expected<DatasetCatalog> catalog = DatasetCatalog::loadDefault();
  if (!catalog.ok()) return;
  for (const CatalogEntry& entry : catalog->entries()) {
    const QString folder =
        GetDatasetDialog::presentFolder(entry, GetDatasetDialog::datasetsFolder());
    if (!folder.isEmpty()) {
      run_presenter_->addDataChoice(tr("%1 (downloaded)").arg(QString::fromStdString(entry.folder)),
                                    folder);
    }
  }
#endif
}

void MainWindow::showMessage(const QString& text) {
  statusBar()->showMessage(text, 8000);
}

bool MainWindow::setInteractive() {
  interactive_ = true;
  long_run_check_->setInteractive(true);
  const bool restored = docks_->restoreLayout();
  fitWindowIntoScreen(this);  // saved on a larger or a since-removed screen
  connect(new WindowOnScreen(this, presentation_->fontZoom()), &WindowOnScreen::message, this,
          &MainWindow::showMessage);
  remembered_ = new RememberedSettings(run_presenter_, run_, controller_, this);
  // An opened run's data is read (by an ablation, by browsing its probe samples) only once the
  // person says so: a run folder's config.json may name any file.
  heads_->setDataConfirmation([this](const QString& paths) {
    return QMessageBox::question(
               this, tr("Read the run's data?"),
               tr("The ablation measures the heads on the validation split of this run's data, "
                  "which the run folder's config.json names:\n\n%1\n\nRead it?")
                   .arg(paths)) == QMessageBox::Yes;
  });
  run_presenter_->probePicker()->setDataConfirmation([this](const QString& paths) {
    return QMessageBox::question(
               this, tr("Read the run's data?"),
               tr("Browsing the validation samples reads this run's data, which the run "
                  "folder's config.json names:\n\n%1\n\nRead it?")
                   .arg(paths)) == QMessageBox::Yes;
  });
  findChild<ReplayActions*>()->setRemembersComparisons(true);
  remembered_->restoreRunSettings();
  remembered_->reopenLastRun();
  return restored;
}

void MainWindow::saveSession() {
  presentation_->leaveAll();
  docks_->saveLayout();
  if (remembered_ != nullptr) remembered_->saveRunSettings();
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (bridge_->isActive()) {
    // Joining here would freeze the window until the current batch (or data loading, or a
    // validation pass) is done and the checkpoint written. Ask the trainer to stop instead, keep
    // the event loop running, and close once the run has ended.
    if (!closing_) {
      closing_ = true;
      if (interactive_) saveSession();
      bridge_->stop();
      connect(bridge_, &EngineBridge::runEnded, this, &QWidget::close, Qt::QueuedConnection);
      statusBar()->showMessage(
          tr("Stopping: the trainer writes its checkpoint, then the window "
             "closes…"));
    }
    event->ignore();
    return;
  }
  if (interactive_ && !closing_) saveSession();
  bridge_->shutdown();
  event->accept();
}

}  // namespace ascope
