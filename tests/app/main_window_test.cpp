// The main window: every panel is a dock with an objectName and a View-menu toggle; the layout
// survives saveState/restoreState and "Reset layout"; events from a fake engine reach every panel;
// "Export all panels" writes PNG, SVG, PDF and CSV for each.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressDialog>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <sys/wait.h>
#include <unistd.h>

#include "app/gui/bridge/current_run.h"
#include "app/gui/bridge/engine_bridge.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/curves/curves_presenter.h"
#include "app/gui/views/decoding/decoding_presenter.h"
#include "app/gui/views/encoding/encoding_presenter.h"
#include "app/gui/views/run/run_presenter.h"
#include "app/gui/views/run/run_progress_view.h"
#include "app/gui/views/sample/sample_presenter.h"
#include "app/gui/window/export/export_actions.h"
#include "app/gui/window/layout/dock_layout.h"
#include "app/gui/window/main/main_window.h"
#include "app/gui/window/run/run_controller.h"
#include "app/gui/window/scripted/app_options.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "fake_engine.h"
#include "open_run_in_window.h"
#include "widgets/attention/attention_head_grid.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/curves/metric_curve_panel.h"
#include "widgets/decoding/decoding_step_view.h"
#include "widgets/encoding/positional_encoding_panel.h"
#include "widgets/samples/sample_panel.h"

namespace ascope {

class MainWindowTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void everyPanelIsANamedDock();
  void layoutRoundTripsAndResets();
  void fakeEngineFillsEveryPanel();
  void exportAllWritesEveryFormat();
  void exportAllLeavesTheHeadGridAlone();
  void exportKeepsTheWindowTurning();
  void exportCanBeCancelledBetweenFigures();
  void shortcutsAreBound();
  void aboutShowsTheProjectVersion();
  void closingWhileTrainingStopsTheRunFirst();
  void openedRunDocksFollowTheTimeline();
  void pausedRunShowsNoGrowingEta();
  void decodingDockStepsWithItsOwnKeys();
  void testFigureReachesTheRunDockAndTheCurves();
  void openedRunShowsItsStoredTestFigure();
  void commandLineSizesAndTimesAreBounded();
  void staleExportStagingFoldersGoAtStart();

 private:
  /// `window` at 1400 × 900 with the fake run of feed() shown in every panel.
  static bool showFed(MainWindow& window) {
    window.resize(1400, 900);
    window.show();
    feed(window);
    return QTest::qWaitFor([&] { return window.dockReport()["sample_shown"].toBool(); }, 2000);
  }
  /// A fake translation run in `window`, with one of everything the panels show.
  static void feed(MainWindow& window) {
    auto owned = std::make_unique<FakeEngine>();
    FakeEngine& engine = *owned;
    window.bridge()->attach(std::move(owned), *makePreset(kTranslationTaskId, "tiny"));
    engine.pushState(2);
    engine.pushSteps(1, 120);
    engine.pushEpoch(1, 100);
    engine.publishAttention(100);
    engine.publishPositionalEncoding();
    engine.publishSample();
    engine.pushLog(2, "12:00:00 new run");
  }
};

void MainWindowTest::everyPanelIsANamedDock() {
  MainWindow window;
  const QList<QDockWidget*> docks = window.findChildren<QDockWidget*>();
  QCOMPARE(docks.size(), 12);
  QMenu* view = nullptr;
  for (QAction* menu : window.menuBar()->actions()) {
    if (menu->text().remove(QLatin1Char('&')) == QStringLiteral("View")) view = menu->menu();
  }
  QVERIFY(view);
  for (QDockWidget* dock : docks) {
    QVERIFY(!dock->objectName().isEmpty());
    QVERIFY(dock->features() & QDockWidget::DockWidgetMovable);
    QVERIFY(dock->features() & QDockWidget::DockWidgetFloatable);
    QVERIFY2(view->actions().contains(dock->toggleViewAction()), qPrintable(dock->objectName()));
  }
}

void MainWindowTest::layoutRoundTripsAndResets() {
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  QDockWidget* log = window.dockLayout()->dock(QStringLiteral("logDock"));
  QDockWidget* loss = window.dockLayout()->dock(QStringLiteral("lossDock"));
  QVERIFY(log && loss);
  const QByteArray original = window.saveState();
  window.tabifyDockWidget(loss, log);
  log->hide();
  QVERIFY(window.restoreState(original));
  QVERIFY(log->isVisible());
  QVERIFY(window.tabifiedDockWidgets(loss).isEmpty());

  loss->setFloating(true);
  log->hide();
  window.dockLayout()->resetLayout();
  QVERIFY(!loss->isFloating());
  QVERIFY(log->isVisible());
  QCOMPARE(window.dockWidgetArea(window.dockLayout()->dock(QStringLiteral("runDock"))),
           Qt::LeftDockWidgetArea);
}

void MainWindowTest::fakeEngineFillsEveryPanel() {
  MainWindow window;
  QVERIFY(showFed(window));
  const QJsonObject report = window.dockReport();
  QCOMPARE(report["loss_points"].toInt(), 120);
  QCOMPARE(report["accuracy_points"].toInt(), 120);
  QCOMPARE(report["loss_validation_points"].toInt(), 1);
  QCOMPARE(report["attention_groups"].toInt(), 3);
  QCOMPARE(report["positional_encoding_rows"].toInt(), 16);
  QVERIFY(report["log_lines"].toInt() >= 1);
}

void MainWindowTest::exportAllWritesEveryFormat() {
  MainWindow window;
  QVERIFY(showFed(window));
  QTemporaryDir dir;
  const ExportResult result = window.exporter()->exportAll(dir.path(), ExportSize{800, 500, 1.0});
  QVERIFY2(result.ok(), qPrintable(result.error));
  const QStringList files = QDir(dir.path()).entryList(QDir::Files);
  for (const char* suffix : {".png", ".svg", ".pdf", ".csv"}) {
    QVERIFY2(files.filter(QString::fromLatin1(suffix)).size() >= 4,
             qPrintable(files.join(QLatin1Char(' '))));
  }
  // The other panels' figures get a sidecar too: the step they were taken at.
  QFile loss_sidecar(dir.filePath(QStringLiteral("loss.json")));
  QVERIFY(loss_sidecar.open(QIODevice::ReadOnly));
  QCOMPARE(QJsonDocument::fromJson(loss_sidecar.readAll()).object()["step"].toInt(), 100);
  // The attention bundle: every kind of attention and every layer, the aggregates, and the head
  // enlarged on screen, each with its sidecar; titles say step and layer.
  const QDir attention(dir.filePath(QStringLiteral("attention")));
  for (const char* kind : {"encoder_self", "decoder_self", "cross"}) {
    for (int layer = 0; layer < 2; ++layer) {
      for (const char* suffix : {"png", "svg", "pdf", "json"}) {
        const QString file =
            QStringLiteral("%1/attention_%1_layer%2_step100.%3").arg(kind).arg(layer).arg(suffix);
        QVERIFY2(QFileInfo(attention.filePath(file)).size() > 0, qPrintable(file));
      }
    }
  }
  for (const char* aggregate :
       {"encoder_self_mean_of_heads", "encoder_self_rollout", "cross_mean_of_heads"}) {
    const QString file = QStringLiteral("%1/attention_%1_step100.png").arg(aggregate);
    QVERIFY2(QFileInfo(attention.filePath(file)).size() > 0, qPrintable(file));
  }
  // The enlarged head is the one on screen: the translation run opens on cross attention.
  QCOMPARE(window.attention()->panel()->currentGroup(), 2);
  QVERIFY(QFileInfo::exists(
      attention.filePath(QStringLiteral("cross/attention_cross_layer0_head0_step100.pdf"))));
  QCOMPARE(attention.entryList({QStringLiteral("*.pdf")}, QDir::Files).size(), 0);
  QFile svg(attention.filePath(QStringLiteral("cross/attention_cross_layer1_step100.svg")));
  QVERIFY(svg.open(QIODevice::ReadOnly));
  const QString svg_text = QString::fromUtf8(svg.readAll());
  QVERIFY(svg_text.contains(QStringLiteral("step 100")) &&
          svg_text.contains(QStringLiteral("cross · layer 1")));
  // Every positional-encoding view, not the one tab shown.
  const QDir encoding(dir.filePath(QStringLiteral("positional_encoding")));
  QCOMPARE(encoding.entryList({QStringLiteral("*.png")}).size(), 4);
  QCOMPARE(encoding.entryList({QStringLiteral("*.json")}).size(), 4);
  // Every weight shown with its step and group, in a file named after the step.
  QFile csv(dir.filePath(QStringLiteral("attention_step100.csv")));
  QVERIFY(csv.open(QIODevice::ReadOnly));
  const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
  QCOMPARE(lines.first(),
           QStringLiteral("step,group,layer,head,query_index,query,key_index,key,weight"));
  // 2 layers x 2 heads of encoder self (4 x 4), decoder self (5 x 5) and cross (5 x 4), then the
  // aggregates: one matrix per layer for the mean and rollout of the self groups, mean of cross.
  QCOMPARE(lines.size() - 1, 4 * 16 + 4 * 25 + 4 * 20 + 2 * (16 + 16 + 25 + 25 + 20));
  for (const QString& line : lines.mid(1))
    QVERIFY2(line.startsWith(QStringLiteral("100,")), qPrintable(line));
  const QString attention_csv = dir.filePath(QStringLiteral("attention.csv"));
  QVERIFY(window.exporter()->exportAttention(attention_csv).ok());
  QVERIFY(QFileInfo(attention_csv).size() > 100);
  const QString metrics_csv = dir.filePath(QStringLiteral("metrics.csv"));
  QVERIFY(window.exporter()->exportMetrics(metrics_csv, {}).ok());
  QVERIFY(QFileInfo(metrics_csv).size() > 100);
}

namespace {

/// What the head grid on screen looks like: its place, column count, outer margins and every
/// head's rectangle.
QList<QRect> gridGeometry(const AttentionHeadGrid* grid) {
  QList<QRect> shape{
      grid->geometry(), QRect(grid->columnCount(), 0, 0, 0),
      QRect(grid->plotLayout()->margins().left(), grid->plotLayout()->margins().top(),
            grid->plotLayout()->margins().right(), grid->plotLayout()->margins().bottom())};
  for (int h = 0; h < grid->headCount(); ++h) shape << grid->headRect(h)->rect();
  return shape;
}

}  // namespace

// Ctrl+E squeezed the heads into a thin column until the program was restarted; the
// layout computed for the export size stayed behind.
void MainWindowTest::exportAllLeavesTheHeadGridAlone() {
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  feed(window);
  QTRY_VERIFY_WITH_TIMEOUT(window.dockReport()["sample_shown"].toBool(), 2000);
  AttentionHeadGridPanel* panel = window.attention()->panel();
  AttentionHeadGrid* grid = panel->headGrid();
  QTRY_VERIFY_WITH_TIMEOUT(grid->headCount() > 0 && grid->headRect(0)->rect().width() > 0, 2000);
  panel->setCurrentGroup(2);  // cross: 5 x 4 heads, the shape that showed the bug
  QTest::qWait(20);
  grid->replot();
  const QList<QRect> before = gridGeometry(grid);
  QVERIFY(before[1].x() >= 1);
  QTemporaryDir dir;
  // What Ctrl+E runs once a folder is chosen, at the dialog's default slide size.
  const ExportResult result = window.exporter()->exportAll(dir.path());
  QVERIFY2(result.ok(), qPrintable(result.error));
  QTest::qWait(20);  // the queued replots run
  grid->replot();
  QCOMPARE(gridGeometry(grid), before);
  QCOMPARE(panel->currentGroup(), 2);
}

// Ctrl+E froze the window 8–10 s (every figure drawn in one go on the GUI thread), the
// closed folder dialog still painted over it. A zero-interval timer runs once per turn of the
// event loop: the export with its progress lets it run between every two figures.
void MainWindowTest::exportKeepsTheWindowTurning() {
  MainWindow window;
  QVERIFY(showFed(window));
  QTemporaryDir dir;
  int turns = 0;
  qint64 longest_ms = 0;
  QElapsedTimer since_last;
  QTimer turn;
  turn.setInterval(0);
  connect(&turn, &QTimer::timeout, &turn, [&] {
    if (since_last.isValid()) longest_ms = std::max(longest_ms, since_last.elapsed());
    since_last.restart();
    ++turns;
  });
  turn.start();
  QElapsedTimer whole;
  whole.start();
  const ExportResult result =
      window.exporter()->exportAllWithProgress(dir.path(), ExportSize{800, 500, 1.0}).result();
  const qint64 total_ms = whole.elapsed();
  turn.stop();
  QVERIFY2(result.ok(), qPrintable(result.error));
  int figures = 0;
  for (QDirIterator it(dir.path(), {QStringLiteral("*.json")}, QDir::Files,
                       QDirIterator::Subdirectories);
       it.hasNext(); it.next())
    ++figures;
  QVERIFY2(figures >= 10, qPrintable(QString::number(figures)));
  QVERIFY2(turns >= figures,
           qPrintable(QStringLiteral("%1 turns for %2 figures").arg(turns).arg(figures)));
  qInfo("export of %d figures: %lld ms, %d turns of the event loop, the longest %lld ms", figures,
        total_ms, turns, longest_ms);
}

void MainWindowTest::exportCanBeCancelledBetweenFigures() {
  MainWindow window;
  QVERIFY(showFed(window));
  QTemporaryDir dir;
  int turns = 0;
  QTimer press_cancel;
  press_cancel.setInterval(0);
  connect(&press_cancel, &QTimer::timeout, &press_cancel, [&] {
    if (++turns != 3) return;
    QProgressDialog* progress = window.findChild<QProgressDialog*>();
    QVERIFY(progress != nullptr && progress->isVisible());
    progress->cancel();
  });
  press_cancel.start();
  const ExportResult result =
      window.exporter()->exportAllWithProgress(dir.path(), ExportSize{800, 500, 1.0}).result();
  press_cancel.stop();
  QVERIFY(result.cancelled);
  QVERIFY(!result.ok());
  // Nothing reached the folder: the figures drawn so far stayed in the staging folder.
  QVERIFY2(
      QDir(dir.path()).isEmpty(),
      qPrintable(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).join(' ')));
}

void MainWindowTest::shortcutsAreBound() {
  MainWindow window;
  QStringList shortcuts;
  for (QAction* action : window.findChildren<QAction*>()) {
    if (!action->shortcut().isEmpty()) shortcuts << action->shortcut().toString();
  }
  for (const char* key : {"Space", "F5", "F6", "Shift+F5", "Ctrl+E", "Ctrl+O", "Ctrl+Q", "Left",
                          "Right", "Home", "End", "P", "Esc"}) {
    QVERIFY2(shortcuts.contains(QString::fromLatin1(key)), key);
  }
}

// Help → About names the version of CMakeLists.txt (the one --version prints).
void MainWindowTest::aboutShowsTheProjectVersion() {
  MainWindow window;
  window.show();
  QAction* about = nullptr;
  for (QAction* action : window.findChildren<QAction*>()) {
    if (action->text().remove(QLatin1Char('&')) == QStringLiteral("About AttentionScope"))
      about = action;
  }
  QVERIFY(about != nullptr);
  // The box is modal: read and close it from the event loop it runs.
  QString shown;
  QTimer poll;
  poll.setInterval(20);
  connect(&poll, &QTimer::timeout, this, [&shown, &poll] {
    if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
      shown = box->text();
      poll.stop();
      box->accept();
    }
  });
  poll.start();
  about->trigger();
  QVERIFY2(shown.contains(QStringLiteral("AttentionScope " ATTENTIONSCOPE_PROJECT_VERSION)),
           qPrintable(shown));
}

void MainWindowTest::closingWhileTrainingStopsTheRunFirst() {
  QTemporaryDir dir;
  Expected<TrainingConfig> config = makePreset(kSentimentTaskId, "tiny");
  QVERIFY(config.ok());
  config->epochs = 1000;  // still running when the window is closed
  config->out_dir = dir.filePath(QStringLiteral("run")).toStdString();
  config->stop_on_nonfinite = false;
  MainWindow window;
  window.show();
  QCOMPARE(window.bridge()->startTraining(*config), QString());
  QTRY_VERIFY_WITH_TIMEOUT(window.currentRun()->state() == TrainerState::kRunning, 60000);
  // Refused for now, without joining the trainer: it is asked to stop and the window stays.
  QVERIFY(!window.close());
  QVERIFY(window.isVisible());
  // The event loop keeps running; once the run has ended, the window closes by itself.
  QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 60000);
  QVERIFY(!window.bridge()->isActive());
  QCOMPARE(window.currentRun()->state(), TrainerState::kStopped);
  QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("run/checkpoints/last.pt"))));
}

void MainWindowTest::openedRunDocksFollowTheTimeline() {
  QTemporaryDir dir;
  QVERIFY(FakeEngine::writeRunFolder(dir.filePath("run").toStdString(), 4));
  MainWindow window;
  test::showAndOpenRun(window, dir.filePath("run"));
  if (QTest::currentTestFailed()) return;
  // Opened: the newest snapshot's step everywhere, and its stored sample in the Sample dock.
  QCOMPARE(window.curves()->loss()->cursorStep(), 40.0);
  QCOMPARE(window.curves()->accuracy()->cursorStep(), 40.0);
  QCOMPARE(window.sample()->panel()->mode(), SamplePanel::Mode::Image);
  QVERIFY(window.sample()->panel()->verdictLabel()->text().contains(
      QStringLiteral("predicted at step 40")));
  QCOMPARE(window.encoding()->panel()->encoding().matrix.rows, 8);
  // A click on a curve (step 19) moves every dock to the nearest snapshot, step 20.
  Q_EMIT window.curves()->loss()->stepPicked(19.0);
  window.attention()->waitForLoad();
  QTRY_COMPARE_WITH_TIMEOUT(window.attention()->shownStep(), 20LL, 2000);
  QCOMPARE(window.curves()->loss()->cursorStep(), 20.0);
  QCOMPARE(window.curves()->accuracy()->cursorStep(), 20.0);
  QCOMPARE(window.encoding()->panel()->encoding().matrix.rows, 6);
  QVERIFY(window.sample()->panel()->verdictLabel()->text().contains(
      QStringLiteral("predicted at step 20")));
  // The keys of the Timeline menu step through the snapshots.
  QTest::keyClick(&window, Qt::Key_Right);
  window.attention()->waitForLoad();
  QTRY_COMPARE_WITH_TIMEOUT(window.attention()->shownStep(), 30LL, 2000);
  QCOMPARE(window.curves()->loss()->cursorStep(), 30.0);
  QTest::keyClick(&window, Qt::Key_Home);
  window.attention()->waitForLoad();
  QTRY_COMPARE_WITH_TIMEOUT(window.attention()->shownStep(), 10LL, 2000);
  // With the attention panel focused, → changes the head instead, and the step stays.
  AttentionHeadGridPanel* heads = window.attention()->panel();
  QVERIFY(heads->headCount() > 1);
  window.activateWindow();
  heads->setFocus();
  QTRY_VERIFY(heads->hasFocus());
  const int head = heads->currentHead();
  QTest::keyClick(heads, Qt::Key_Right);
  QCOMPARE(heads->currentHead(), head + 1);
  window.attention()->waitForLoad();
  QCOMPARE(window.attention()->shownStep(), 10LL);
}

void MainWindowTest::pausedRunShowsNoGrowingEta() {
  MainWindow window;
  feed(window);
  RunProgressView* progress = window.runPanel()->progressView();
  QTRY_VERIFY_WITH_TIMEOUT(!progress->statsText().contains(QStringLiteral("ETA –")), 2000);
  progress->setState(TrainerState::kPaused);
  QVERIFY2(progress->statsText().contains(QStringLiteral("ETA – (paused)")),
           qPrintable(progress->statsText()));
  progress->setState(TrainerState::kRunning);
  QVERIFY(!progress->statsText().contains(QStringLiteral("paused")));
  progress->setState(TrainerState::kStopped);
  QVERIFY2(progress->statsText().contains(QStringLiteral("ETA –<")),
           qPrintable(progress->statsText()));
}

void MainWindowTest::decodingDockStepsWithItsOwnKeys() {
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  feed(window);
  DecodingStepView* decoding = window.decoding()->view();
  QTRY_COMPARE_WITH_TIMEOUT(decoding->stepCount(), 5, 2000);
  QCOMPARE(decoding->predictedToken(0), QStringLiteral("il"));
  window.activateWindow();
  decoding->setFocus();
  QTRY_VERIFY(decoding->hasFocus());
  const int step = decoding->step();
  QTest::keyClick(decoding, Qt::Key_Right);  // its own step, not the run's timeline
  QCOMPARE(decoding->step(), step + 1);
  QTest::keyClick(decoding, Qt::Key_End);
  QCOMPARE(decoding->step(), 4);
  QTest::keyClick(decoding, Qt::Key_Home);
  QCOMPARE(decoding->step(), 0);
}

void MainWindowTest::testFigureReachesTheRunDockAndTheCurves() {
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  auto owned = std::make_unique<FakeEngine>();
  FakeEngine& engine = *owned;
  window.bridge()->attach(std::move(owned), *makePreset(kSentimentTaskId, "tiny"));
  engine.pushState(2);
  engine.pushSteps(1, 120, 120);
  engine.pushEpoch(1, 60);
  engine.pushEpoch(2, 120);
  engine.pushTestEvaluation(120, 60);  // epoch 1's weights were the best
  RunProgressView* progress = window.runPanel()->progressView();
  QTRY_VERIFY_WITH_TIMEOUT(!progress->testText().isEmpty(), 2000);
  QVERIFY2(progress->testText().contains(QStringLiteral("Test</b>: accuracy 0.871 · "
                                                        "loss 0.3012 · 5000 samples · best "
                                                        "weights (step 60)")),
           qPrintable(progress->testText()));
  // A marker beside the validation point of the weights tested, on both curves.
  QTRY_COMPARE_WITH_TIMEOUT(window.curves()->accuracy()->testGraph()->dataCount(), 1, 2000);
  QCOMPARE(window.curves()->accuracy()->testGraph()->data()->constBegin()->key, 60.0);
  QCOMPARE(window.curves()->accuracy()->testGraph()->data()->constBegin()->value, 0.871);
  QTRY_COMPARE_WITH_TIMEOUT(window.curves()->loss()->testGraph()->dataCount(), 1, 2000);
  QCOMPARE(window.curves()->loss()->testGraph()->data()->constBegin()->value, 0.3012);
  QCOMPARE(window.curves()->accuracy()->validationGraph()->dataCount(), 2);
}

void MainWindowTest::openedRunShowsItsStoredTestFigure() {
  QTemporaryDir dir;
  const std::string run = dir.filePath("run").toStdString();
  QVERIFY(FakeEngine::writeRunFolder(run, 2));
  QFile metrics(dir.filePath("run/metrics.csv"));
  QVERIFY(metrics.open(QIODevice::WriteOnly));
  metrics.write(
      "step,epoch,split,loss,accuracy,lr,samples_per_s,bleu,cer,wer,exact_match,samples,"
      "weights_step\n"
      "10,1,train,0.9,0.4,0.001,100,,,,,,\n"
      "20,1,train,0.7,0.6,0.001,100,,,,,,\n"
      "20,1,val,0.75,0.55,0.001,,,,,,,\n"
      "20,1,test,0.72,0.5612,0.001,,,,,,400,20\n");
  metrics.close();
  MainWindow window;
  test::showAndOpenRun(window, dir.filePath("run"));
  if (QTest::currentTestFailed()) return;
  const QString text = window.runPanel()->progressView()->testText();
  QVERIFY2(text.contains(QStringLiteral("accuracy 0.561 · loss 0.7200 · 400 samples · last "
                                        "weights (step 20)")),
           qPrintable(text));
  QVERIFY(window.curves()->accuracy()->hasTestPoint());
  QVERIFY(window.curves()->loss()->hasTestPoint());
}

void MainWindowTest::commandLineSizesAndTimesAreBounded() {
  const auto parse = [](const QStringList& extra, QString* error) {
    bool help = false;
    return AppOptions::parse(QStringList{QStringLiteral("attentionscope")} + extra, error, &help);
  };
  QString error;
  // 100000x100000 grew the process to 24 GB before the kernel ended it.
  QVERIFY(!parse({QStringLiteral("--size"), QStringLiteral("100000x100000")}, &error));
  QCOMPARE(error,
           QStringLiteral(
               "--size must be WIDTHxHEIGHT from 320x240 to 7680x4320, got \"100000x100000\""));
  QVERIFY(!parse({QStringLiteral("--size"), QStringLiteral("99999999999x800")}, &error));
  QVERIFY(!parse({QStringLiteral("--size"), QStringLiteral("200x800")}, &error));
  std::optional<AppOptions> eight_k =
      parse({QStringLiteral("--size"), QStringLiteral("7680x4320")}, &error);
  QVERIFY2(eight_k, qPrintable(error));
  QCOMPARE(eight_k->size, QSize(7680, 4320));
  // "--timeout 0.5" was refused as "must be a positive number".
  std::optional<AppOptions> half =
      parse({QStringLiteral("--timeout"), QStringLiteral("0.5")}, &error);
  QVERIFY2(half, qPrintable(error));
  QCOMPARE(half->timeout_s, 0.5);
  for (const char* bad : {"0", "-1", "nan", "inf", "1e7", "soon"}) {
    QVERIFY2(!parse({QStringLiteral("--timeout"), QString::fromLatin1(bad)}, &error), bad);
    QVERIFY2(error.startsWith(QStringLiteral("--timeout must be a number of seconds above 0")) &&
                 error.contains(QString::fromLatin1(bad)),
             qPrintable(error));
  }
}

void MainWindowTest::staleExportStagingFoldersGoAtStart() {
  // A kill -9 during "Export all panels" (or --export-dir) left a 0.4–4 MB folder in /tmp.
  const pid_t dead = ::fork();  // a process that has ended: a child that exited, reaped
  if (dead == 0) ::_exit(0);
  int status = 0;
  ::waitpid(dead, &status, 0);
  const QString stale = QDir::temp().filePath(
      QStringLiteral("%1-%2-Zq9x1A").arg(QLatin1String(ExportActions::kStagingPrefix)).arg(dead));
  const QString running =
      QDir::temp().filePath(QStringLiteral("%1-%2-Zq9x1A")
                                .arg(QLatin1String(ExportActions::kStagingPrefix))
                                .arg(QCoreApplication::applicationPid()));
  for (const QString& folder : {stale, running}) {
    QVERIFY(QDir().mkpath(folder + QStringLiteral("/attention")));
    QFile file(folder + QStringLiteral("/attention/heads.png"));
    QVERIFY(file.open(QIODevice::WriteOnly));
  }
  MainWindow window;  // a start of the program
  QVERIFY2(!QFileInfo::exists(stale), qPrintable(stale));
  QVERIFY2(QFileInfo::exists(running), "a running export's staging folder was removed");
  QDir(running).removeRecursively();
  // An export stages under the process's own name, and leaves nothing there when done; the temp
  // file of a copy that a killed export left beside one of its files goes, another's stays.
  QTemporaryDir out;
  const QString torn = QDir(out.path()).filePath(QStringLiteral("loss.png.tmp.%1.3").arg(dead));
  const QString users = QDir(out.path()).filePath(QStringLiteral("notes.txt.tmp.%1.3").arg(dead));
  for (const QString& path : {torn, users}) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
  }
  QVERIFY(window.exporter()->exportAll(out.path(), ExportSize{400, 300, 1.0}).ok());
  QVERIFY2(!QFileInfo::exists(torn), qPrintable(torn));
  QVERIFY2(QFileInfo::exists(users), "a file the export does not write was removed");
  const QStringList left =
      QDir::temp().entryList({QStringLiteral("%1-%2-*")
                                  .arg(QLatin1String(ExportActions::kStagingPrefix))
                                  .arg(QCoreApplication::applicationPid())},
                             QDir::Dirs | QDir::NoDotAndDotDot);
  QVERIFY2(left.isEmpty(), qPrintable(left.join(QLatin1Char(' '))));
}

}  // namespace ascope

QTEST_MAIN(ascope::MainWindowTest)
#include "main_window_test.moc"
