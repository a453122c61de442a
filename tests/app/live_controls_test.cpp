// Commands sent to a run while it goes, and the run time question before it starts: the Run
// dock's live learning rate reaches the engine while paused, the change the engine reports is
// marked on both curves at its step (live, and in an opened run from learning_rates.csv); the
// long-run question is asked only in an interactive window and above the threshold; the model
// choice sets the config's pretrained folder.
#include <QAction>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "app/gui/bridge/current_run.h"
#include "app/gui/bridge/engine_bridge.h"
#include "app/gui/views/curves/curves_presenter.h"
#include "app/gui/views/log/log_presenter.h"
#include "app/gui/views/run/live_learning_rate_box.h"
#include "app/gui/views/run/pretrained_model_choice.h"
#include "app/gui/views/run/run_control_bar.h"
#include "app/gui/views/run/run_presenter.h"
#include "app/gui/views/sample/probe_sample_dialog.h"
#include "app/gui/views/sample/probe_sample_picker.h"
#include "app/gui/window/main/main_window.h"
#include "app/gui/window/run/long_run_check.h"
#include "app/gui/window/run/run_controller.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "fake_engine.h"
#include "news_recorder.h"
#include "widgets/common/log_panel.h"
#include "widgets/curves/curve_event_markers.h"
#include "widgets/curves/metric_curve_panel.h"

namespace ascope {

class LiveControlsTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void learningRateWhilePausedReachesTheEngineAndIsMarked();
  void badLearningRateIsNotSent();
  void realRunLogsAndMarksTheChange();
  void openedRunMarksItsLearningRateChanges();
  void longRunIsAskedAboutOnlyWhenInteractive();
  void selectingAModelSetsThePretrainedFolder();
  void probePickerSetsTheProbeSetBeforeARun();
  void probePickerSendsTheChosenSampleDuringARun();
  void probeDialogShowsImagesAsThumbnails();
};

void LiveControlsTest::learningRateWhilePausedReachesTheEngineAndIsMarked() {
  MainWindow window;
  window.resize(1280, 720);
  window.show();
  test::NewsRecorder news;
  window.controller()->addReader(&news);
  auto owned = std::make_unique<FakeEngine>();
  FakeEngine& engine = *owned;
  window.bridge()->attach(std::move(owned), *makePreset(kSentimentTaskId, "tiny"));
  engine.pushState(2);
  engine.pushSteps(1, 40);
  engine.pushState(3);  // paused
  QTRY_COMPARE_WITH_TIMEOUT(window.currentRun()->state(), TrainerState::kPaused, 2000);

  LiveLearningRateBox* box = window.runControls()->liveLearningRate();
  QVERIFY(box->setButton()->isEnabled());
  box->rateEdit()->setText(QStringLiteral("5e-4"));
  QTest::mouseClick(box->setButton(), Qt::LeftButton);
  QCOMPARE(engine.commands.back(), std::string("lr 0.000500"));
  QVERIFY2(box->statusText().contains(QStringLiteral("Resume or Step")),
           qPrintable(box->statusText()));
  // Nothing is marked before the engine has used the rate.
  QCOMPARE(window.curves()->loss()->eventMarkers()->markers().size(), 0);

  engine.pushLearningRateChange(41, 5e-4, 1e-3);  // Step pressed: step 41 trains with it
  QTRY_COMPARE_WITH_TIMEOUT(window.curves()->loss()->eventMarkers()->markers().size(), 1, 2000);
  for (MetricCurvePanel* curve : {window.curves()->loss(), window.curves()->accuracy()}) {
    QCOMPARE(curve->eventMarkers()->markers().size(), 1);
    QCOMPARE(curve->eventMarkers()->markers().front().step, 41.0);
    QCOMPARE(curve->eventMarkers()->markers().front().text, QStringLiteral("lr 0.0005"));
    QVERIFY(curve->eventMarkers()->line(0) != nullptr);
  }
  QVERIFY2(box->statusText().contains(QStringLiteral("since step 41")),
           qPrintable(box->statusText()));
  // The steps and the change reached the docks as the run's news, like any other event.
  QCOMPARE(news.steps(RunNews::Source::kLive), std::size_t{40});
  std::size_t changes = 0;
  for (const test::NewsRecorder::Piece& piece : news.pieces) changes += piece.learning_rate_changes;
  QCOMPARE(changes, std::size_t{1});
  QCOMPARE(news.count(RunNews::Source::kOpened) + news.count(RunNews::Source::kFollowed),
           std::size_t{0});

  // A new run starts with clean curves.
  window.curves()->loss()->clear();
  QCOMPARE(window.curves()->loss()->eventMarkers()->markers().size(), 0);
}

void LiveControlsTest::badLearningRateIsNotSent() {
  MainWindow window;
  // File → Get pretrained model… is there (its dialog: get_pretrained_model_dialog_test).
  auto* get_model = window.findChild<QAction*>(QStringLiteral("getPretrainedModelAction"));
  QVERIFY(get_model != nullptr);
  QVERIFY(!get_model->associatedObjects().isEmpty());
  auto owned = std::make_unique<FakeEngine>();
  FakeEngine& engine = *owned;
  window.bridge()->attach(std::move(owned), *makePreset(kSentimentTaskId, "tiny"));
  engine.pushState(2);
  QTRY_COMPARE_WITH_TIMEOUT(window.currentRun()->state(), TrainerState::kRunning, 2000);
  LiveLearningRateBox* box = window.runControls()->liveLearningRate();
  for (const char* bad : {"fast", "0", "-1e-3", "10", "nan"}) {
    box->rateEdit()->setText(QString::fromLatin1(bad));
    QTest::mouseClick(box->setButton(), Qt::LeftButton);
    QVERIFY2(box->statusText().contains(QStringLiteral("not a learning rate")), bad);
  }
  QVERIFY(engine.commands.empty());
  QCOMPARE(LiveLearningRateBox::parseRate(QStringLiteral(" 3e-4 ")).value_or(0), 3e-4);

  // Idle: the box cannot send.
  engine.pushState(static_cast<int>(TrainerState::kStopped));
  QTRY_COMPARE_WITH_TIMEOUT(window.currentRun()->state(), TrainerState::kStopped, 2000);
  QVERIFY(!box->setButton()->isEnabled());
}

void LiveControlsTest::realRunLogsAndMarksTheChange() {
  QTemporaryDir dir;
  TrainingConfig config = *makePreset(kSentimentTaskId, "tiny");
  config.max_steps = 4;
  config.probe_every_seconds = 1e9;
  config.out_dir = dir.filePath(QStringLiteral("run")).toStdString();
  MainWindow window;
  // Step: starts paused and trains one batch.
  QVERIFY(window.controller()->startRun(config, /*step_only=*/true).isEmpty());
  QTRY_COMPARE_WITH_TIMEOUT(window.currentRun()->state(), TrainerState::kPaused, 60000);
  LiveLearningRateBox* box = window.runControls()->liveLearningRate();
  box->rateEdit()->setText(QStringLiteral("0.0005"));
  QTest::mouseClick(box->setButton(), Qt::LeftButton);
  window.bridge()->stepOnce();
  QTRY_COMPARE_WITH_TIMEOUT(window.curves()->loss()->eventMarkers()->markers().size(), 1, 60000);
  const double step = window.curves()->loss()->eventMarkers()->markers().front().step;
  QVERIFY(step >= 2);  // after the batch that Step ran
  QCOMPARE(window.curves()->accuracy()->eventMarkers()->markers().front().step, step);
  // The field shows the rate the newest step trained with once it is empty.
  box->rateEdit()->clear();
  QTRY_COMPARE_WITH_TIMEOUT(box->rateEdit()->placeholderText(), QStringLiteral("now 0.0005"), 5000);
  QTRY_VERIFY2_WITH_TIMEOUT(
      window.log()->panel()->view()->toPlainText().contains(
          QStringLiteral("learning rate 0.0005 from step %1 on (was 0.003)").arg(step)),
      qPrintable(window.log()->panel()->view()->toPlainText()), 5000);
  window.bridge()->stop();
  QSignalSpy ended(window.bridge(), &EngineBridge::runEnded);
  QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 60000);
  QFile rates(QDir(window.currentRun()->folder()).filePath(QStringLiteral("learning_rates.csv")));
  QVERIFY(rates.open(QIODevice::ReadOnly));
  QVERIFY(QString::fromUtf8(rates.readAll()).contains(QStringLiteral("%1,0.0005,0.003").arg(step)));
}

void LiveControlsTest::openedRunMarksItsLearningRateChanges() {
  QTemporaryDir dir;
  const QString run = dir.filePath(QStringLiteral("run"));
  QVERIFY(FakeEngine::writeRunFolder(run.toStdString(), 2));
  QFile rates(QDir(run).filePath(QStringLiteral("learning_rates.csv")));
  QVERIFY(rates.open(QIODevice::WriteOnly));
  rates.write("step,lr,previous_lr\n12,0.0002,0.001\nnot a row\n17,0.0001,0.0002\n");
  rates.close();
  MainWindow window;
  window.resize(1280, 720);
  window.show();
  QSignalSpy opened(window.controller(), &RunController::runOpened);
  window.controller()->openRun(run);
  QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 5000);
  for (MetricCurvePanel* curve : {window.curves()->loss(), window.curves()->accuracy()}) {
    const QVector<CurveMarker>& events = curve->eventMarkers()->markers();
    QCOMPARE(events.size(), 2);
    QCOMPARE(events[0].step, 12.0);
    QCOMPARE(events[0].text, QStringLiteral("lr 0.0002"));
    QCOMPARE(events[1].step, 17.0);
  }
}

void LiveControlsTest::longRunIsAskedAboutOnlyWhenInteractive() {
  // The seed ViT preset: 12 layers of width 256 on 50 000 images × 100 epochs, hours on a CPU.
  TrainingConfig seed = *makePreset(kImageClassificationTaskId, "seed");
  const Expected<std::optional<RunTimeEstimate>> estimate = estimateRunTime(seed, 2);
  QVERIFY(estimate.ok());
  QVERIFY(estimate->has_value());
  QVERIFY2((*estimate)->seconds > 3600, std::to_string((*estimate)->seconds).c_str());

  QVERIFY(!LongRunCheck::shouldAsk(false, *estimate, 60));
  QVERIFY(LongRunCheck::shouldAsk(true, *estimate, 60));
  QVERIFY(!LongRunCheck::shouldAsk(true, *estimate, 1e12));
  QVERIFY(!LongRunCheck::shouldAsk(true, std::nullopt, 60));
  const QString question = LongRunCheck::question(seed, **estimate, 2);
  QVERIFY2(question.contains(QStringLiteral("seed preset")) &&
               question.contains(QStringLiteral("this CPU (2 cores)")) &&
               question.contains(QStringLiteral(" h ")),
           qPrintable(question));

  LongRunCheck check(nullptr);
  int asked = 0;
  bool answer = false;
  check.setAsker([&](const QString&) {
    ++asked;
    return answer;
  });
  QSignalSpy accepted(&check, &LongRunCheck::accepted);
  QSignalSpy declined(&check, &LongRunCheck::declined);
  // Tests and scripted runs: started at once, never asked.
  check.check(seed, false);
  QCOMPARE(accepted.size(), 1);
  QCOMPARE(asked, 0);
  // A person at the screen says no, then yes.
  check.setInteractive(true);
  check.check(seed, false);
  QTRY_COMPARE_WITH_TIMEOUT(declined.size(), 1, 5000);
  QCOMPARE(asked, 1);
  QCOMPARE(accepted.size(), 1);
  answer = true;
  check.check(seed, true);
  QTRY_COMPARE_WITH_TIMEOUT(accepted.size(), 2, 5000);
  QCOMPARE(accepted.at(1).at(1).toBool(), true);
  QCOMPARE(asked, 2);
  // A short run is not asked about.
  check.check(*makePreset(kSentimentTaskId, "tiny"), false);
  QTRY_COMPARE_WITH_TIMEOUT(accepted.size(), 3, 5000);
  QCOMPARE(asked, 2);
}

void LiveControlsTest::selectingAModelSetsThePretrainedFolder() {
  QTemporaryDir dir;
  const QString model = dir.filePath(QStringLiteral("bert-base-uncased"));
  QVERIFY(QDir().mkpath(model));
  CurrentRun run;
  RunPresenter panel(&run, false);
  panel.setTask(QString::fromLatin1(kSentimentTaskId));
  PretrainedModelChoice* choice = panel.modelChoice();
  QVERIFY(panel.currentConfig().pretrained.empty());
  choice->addModel(QStringLiteral("bert-base-uncased"), model);
  QCOMPARE(choice->offeredFolders(), QStringList{QDir(model).absolutePath()});
  choice->chooseFolder(model);
  QCOMPARE(QString::fromStdString(panel.currentConfig().pretrained), QDir(model).absolutePath());
  // The folder has no config.json: the engine's validation names it and Start stays off.
  QVERIFY2(panel.validationMessage().contains(QStringLiteral("config.json")),
           qPrintable(panel.validationMessage()));
  QVERIFY(!panel.startAction()->isEnabled());
  choice->chooseFolder({});
  QVERIFY(panel.currentConfig().pretrained.empty());
  // A task that trains only its own model ignores the folder.
  panel.setTask(QString::fromLatin1(kTranslationTaskId));
  choice->chooseFolder(model);
  QVERIFY(panel.currentConfig().pretrained.empty());
  QCOMPARE(choice->currentIndex(), 0);
}

void LiveControlsTest::probePickerSetsTheProbeSetBeforeARun() {
  CurrentRun run;
  RunPresenter panel(&run, false);
  panel.setTask(QString::fromLatin1(kSentimentTaskId));
  panel.setPreset(QStringLiteral("tiny"));
  ProbeSampleDialog* dialog = panel.probePicker()->openDialog();
  QTRY_VERIFY_WITH_TIMEOUT(!dialog->isLoading(), 60000);
  QTRY_VERIFY(dialog->list()->count() > 0);
  QVERIFY2(dialog->statusLabel()->text().contains(QStringLiteral("validation samples")),
           qPrintable(dialog->statusLabel()->text()));
  // The built-in reviews: "index · label — text", the current probe set checked.
  QListWidget* list = dialog->list();
  QVERIFY2(list->item(3)->text().startsWith(QStringLiteral("3 · ")),
           qPrintable(list->item(3)->text()));
  QVERIFY(list->item(3)->text().size() > 20);
  QCOMPARE(dialog->chosenIndices(), (std::vector<int>{0, 1, 2, 3}));
  for (int i = 0; i < list->count(); ++i) {
    list->item(i)->setCheckState(i == 3 || i == 7 ? Qt::Checked : Qt::Unchecked);
  }
  QCOMPARE(dialog->chosenIndices(), (std::vector<int>{3, 7}));
  QSignalSpy gone(dialog, &QObject::destroyed);
  dialog->accept();
  QTRY_COMPARE(gone.size(), 1);
  QCOMPARE(panel.currentConfig().probe_samples, (std::vector<int>{3, 7}));
}

void LiveControlsTest::probePickerSendsTheChosenSampleDuringARun() {
  MainWindow window;
  auto owned = std::make_unique<FakeEngine>();
  FakeEngine& engine = *owned;
  window.bridge()->attach(std::move(owned), *makePreset(kSentimentTaskId, "tiny"));
  engine.pushState(2);
  QTRY_COMPARE_WITH_TIMEOUT(window.currentRun()->state(), TrainerState::kRunning, 2000);
  const std::vector<int> probes_before = window.runPanel()->currentConfig().probe_samples;
  ProbeSampleDialog* dialog = window.runPanel()->probePicker()->openDialog();
  QTRY_VERIFY_WITH_TIMEOUT(!dialog->isLoading(), 60000);
  QTRY_VERIFY(dialog->list()->count() > 5);
  dialog->list()->item(5)->setSelected(true);
  QCOMPARE(dialog->chosenIndices(), std::vector<int>{5});
  dialog->accept();
  QCOMPARE(engine.commands.back(), std::string("probe 5"));
  // The form's probe set (the next run's) is left alone.
  QCOMPARE(window.runPanel()->currentConfig().probe_samples, probes_before);
}

void LiveControlsTest::probeDialogShowsImagesAsThumbnails() {
  ProbeSampleDialog dialog(*makePreset(kImageClassificationTaskId, "tiny"), false);
  QTRY_VERIFY_WITH_TIMEOUT(!dialog.isLoading(), 60000);
  QTRY_VERIFY(dialog.list()->count() > 0);
  QVERIFY(!dialog.list()->item(0)->icon().isNull());
  QVERIFY2(dialog.list()->item(0)->text().startsWith(QStringLiteral("0 · ")),
           qPrintable(dialog.list()->item(0)->text()));

  // A config the engine refuses: the reason, and nothing to choose.
  TrainingConfig bad = *makePreset(kImageClassificationTaskId, "tiny");
  bad.data = "/nonexistent/cifar";
  ProbeSampleDialog refused(bad, false);
  QTRY_VERIFY_WITH_TIMEOUT(!refused.isLoading(), 60000);
  QTRY_VERIFY(refused.statusLabel()->text().startsWith(QStringLiteral("Cannot read")));
  QCOMPARE(refused.list()->count(), 0);
  QVERIFY(refused.chosenIndices().empty());
}

}  // namespace ascope

QTEST_MAIN(ascope::LiveControlsTest)
#include "live_controls_test.moc"
