// The main window: every panel is a dock with an objectName and a View-menu toggle; the layout
// survives saveState/restoreState and "Reset layout"; events from a fake engine reach every panel;
// "Export all panels" writes PNG, SVG, PDF and CSV for each.
#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "app/gui/bridge/current_run.h"
#include "app/gui/bridge/engine_bridge.h"
#include "app/gui/views/attention_timeline_view.h"
#include "app/gui/views/run_panel.h"
#include "app/gui/views/run_progress_view.h"
#include "app/gui/window/dock_layout.h"
#include "app/gui/window/export_actions.h"
#include "app/gui/window/main_window.h"
#include "app/gui/window/run_controller.h"
#include "app/gui/window/scripted_run.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "fake_engine.h"
#include "widgets/attention_head_grid_panel.h"
#include "widgets/decoding_step_view.h"
#include "widgets/metric_curve_panel.h"
#include "widgets/positional_encoding_panel.h"
#include "widgets/sample_panel.h"

namespace ascope {

class MainWindowTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void everyPanelIsANamedDock();
  void layoutRoundTripsAndResets();
  void fakeEngineFillsEveryPanel();
  void exportAllWritesEveryFormat();
  void shortcutsAreBound();
  void closingWhileTrainingStopsTheRunFirst();
  void openedRunDocksFollowTheTimeline();
  void pausedRunShowsNoGrowingEta();
  void decodingDockStepsWithItsOwnKeys();
  void testFigureReachesTheRunDockAndTheCurves();
  void openedRunShowsItsStoredTestFigure();

 private:
  /// Shows `window` and opens the run folder `run` in it, back when the Attention dock has loaded
  /// its snapshot (a failed wait fails the test: the caller checks currentTestFailed()).
  static void showAndOpen(MainWindow& window, const QString& run) {
    window.resize(1400, 900);
    window.show();
    QSignalSpy opened(window.controller(), &RunController::runOpened);
    window.controller()->openRun(run);
    QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 5000);
    window.panels().attention->waitForLoad();
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
  QCOMPARE(docks.size(), 10);
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
  window.resize(1400, 900);
  window.show();
  feed(window);
  QTRY_VERIFY_WITH_TIMEOUT(ScriptedRun::panelReport(&window)["sample_shown"].toBool(), 2000);
  const QJsonObject report = ScriptedRun::panelReport(&window);
  QCOMPARE(report["loss_points"].toInt(), 120);
  QCOMPARE(report["accuracy_points"].toInt(), 120);
  QCOMPARE(report["loss_validation_points"].toInt(), 1);
  QCOMPARE(report["attention_groups"].toInt(), 3);
  QCOMPARE(report["positional_encoding_rows"].toInt(), 16);
  QVERIFY(report["log_lines"].toInt() >= 1);
}

void MainWindowTest::exportAllWritesEveryFormat() {
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  feed(window);
  QTRY_VERIFY_WITH_TIMEOUT(ScriptedRun::panelReport(&window)["sample_shown"].toBool(), 2000);
  QTemporaryDir dir;
  const ExportResult result = window.exporter()->exportAll(dir.path(), ExportSize{800, 500, 1.0});
  QVERIFY2(result.ok(), qPrintable(result.error));
  const QStringList files = QDir(dir.path()).entryList(QDir::Files);
  for (const char* suffix : {".png", ".svg", ".pdf", ".csv"}) {
    QVERIFY2(files.filter(QString::fromLatin1(suffix)).size() >= 5,
             qPrintable(files.join(QLatin1Char(' '))));
  }
  const QString attention_csv = dir.filePath(QStringLiteral("attention.csv"));
  QVERIFY(window.exporter()->exportAttention(attention_csv).ok());
  QVERIFY(QFileInfo(attention_csv).size() > 100);
  const QString metrics_csv = dir.filePath(QStringLiteral("metrics.csv"));
  QVERIFY(window.exporter()->exportMetrics(metrics_csv, {}).ok());
  QVERIFY(QFileInfo(metrics_csv).size() > 100);
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
  showAndOpen(window, dir.filePath("run"));
  if (QTest::currentTestFailed()) return;
  const Panels& panels = window.panels();
  // Opened: the newest snapshot's step everywhere, and its stored sample in the Sample dock.
  QCOMPARE(panels.loss->cursorStep(), 40.0);
  QCOMPARE(panels.accuracy->cursorStep(), 40.0);
  QCOMPARE(panels.sample->mode(), SamplePanel::Mode::Image);
  QVERIFY(panels.sample->verdictLabel()->text().contains(QStringLiteral("predicted at step 40")));
  QCOMPARE(panels.positional_encoding->encoding().matrix.rows, 8);
  // A click on a curve (step 19) moves every dock to the nearest snapshot, step 20.
  Q_EMIT panels.loss->stepPicked(19.0);
  panels.attention->waitForLoad();
  QTRY_COMPARE_WITH_TIMEOUT(panels.attention->shownStep(), 20LL, 2000);
  QCOMPARE(panels.loss->cursorStep(), 20.0);
  QCOMPARE(panels.accuracy->cursorStep(), 20.0);
  QCOMPARE(panels.positional_encoding->encoding().matrix.rows, 6);
  QVERIFY(panels.sample->verdictLabel()->text().contains(QStringLiteral("predicted at step 20")));
  // The keys of the Timeline menu step through the snapshots.
  QTest::keyClick(&window, Qt::Key_Right);
  panels.attention->waitForLoad();
  QTRY_COMPARE_WITH_TIMEOUT(panels.attention->shownStep(), 30LL, 2000);
  QCOMPARE(panels.loss->cursorStep(), 30.0);
  QTest::keyClick(&window, Qt::Key_Home);
  panels.attention->waitForLoad();
  QTRY_COMPARE_WITH_TIMEOUT(panels.attention->shownStep(), 10LL, 2000);
  // With the attention panel focused, → changes the head instead, and the step stays.
  AttentionHeadGridPanel* heads = panels.attention->panel();
  QVERIFY(heads->headCount() > 1);
  window.activateWindow();
  heads->setFocus();
  QTRY_VERIFY(heads->hasFocus());
  const int head = heads->currentHead();
  QTest::keyClick(heads, Qt::Key_Right);
  QCOMPARE(heads->currentHead(), head + 1);
  panels.attention->waitForLoad();
  QCOMPARE(panels.attention->shownStep(), 10LL);
}

void MainWindowTest::pausedRunShowsNoGrowingEta() {
  MainWindow window;
  feed(window);
  RunProgressView* progress = window.panels().run->progressView();
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
  DecodingStepView* decoding = window.panels().decoding;
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
  const Panels& panels = window.panels();
  RunProgressView* progress = panels.run->progressView();
  QTRY_VERIFY_WITH_TIMEOUT(!progress->testText().isEmpty(), 2000);
  QVERIFY2(progress->testText().contains(QStringLiteral("Test (whole split)</b>: accuracy 0.871 · "
                                                        "loss 0.3012 · 5000 samples · best "
                                                        "weights (step 60)")),
           qPrintable(progress->testText()));
  // A marker beside the validation point of the weights tested, on both curves.
  QTRY_COMPARE_WITH_TIMEOUT(panels.accuracy->testGraph()->dataCount(), 1, 2000);
  QCOMPARE(panels.accuracy->testGraph()->data()->constBegin()->key, 60.0);
  QCOMPARE(panels.accuracy->testGraph()->data()->constBegin()->value, 0.871);
  QTRY_COMPARE_WITH_TIMEOUT(panels.loss->testGraph()->dataCount(), 1, 2000);
  QCOMPARE(panels.loss->testGraph()->data()->constBegin()->value, 0.3012);
  QCOMPARE(panels.accuracy->validationGraph()->dataCount(), 2);
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
  showAndOpen(window, dir.filePath("run"));
  if (QTest::currentTestFailed()) return;
  const Panels& panels = window.panels();
  const QString text = panels.run->progressView()->testText();
  QVERIFY2(text.contains(QStringLiteral("accuracy 0.561 · loss 0.7200 · 400 samples · last "
                                        "weights (step 20)")),
           qPrintable(text));
  QVERIFY(panels.accuracy->hasTestPoint());
  QVERIFY(panels.loss->hasTestPoint());
}

}  // namespace ascope

QTEST_MAIN(ascope::MainWindowTest)
#include "main_window_test.moc"
