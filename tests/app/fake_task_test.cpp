// A task the GUI has never heard of: registered at run time (the test-only echo task), it shows up
// in the Run dock with its presets, trains from the Start button, and its attention, accuracy name,
// window title and "Try it" hint come from its descriptor. No GUI file names it.
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include "app/gui/bridge/current_run.h"
#include "app/gui/bridge/engine_bridge.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/curves/curves_presenter.h"
#include "app/gui/views/errors/errors_presenter.h"
#include "app/gui/views/run/hyperparameter_form.h"
#include "app/gui/views/run/run_presenter.h"
#include "app/gui/views/run/run_progress_view.h"
#include "app/gui/views/sample/sample_presenter.h"
#include "app/gui/views/sample/try_it_box.h"
#include "app/gui/window/export/export_actions.h"
#include "app/gui/window/main/main_window.h"
#include "app/gui/window/run/replay_actions.h"
#include "echo_task.h"
#include "engine/tasks/registry/task_registry.h"
#include "open_run_in_window.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/curves/metric_curve_panel.h"
#include "widgets/samples/sample_panel.h"
#include "widgets/samples/text_alignment_view.h"
#include "widgets/tables/error_analysis_panel.h"

namespace ascope {

class FakeTaskTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { QVERIFY(registerEchoTask().ok()); }
  void theRunDockOffersIt();
  void itTrainsFromTheStartButton();
  void aTaskWithItsOwnModelTrainsAndShows();
  void aTaskWithItsOwnFigureAndPayloadTrainsOpensComparesAndExports();
};

void FakeTaskTest::theRunDockOffersIt() {
  MainWindow window;
  RunPresenter* panel = window.runPanel();
  const int index = panel->taskBox()->findData(QString::fromLatin1(kEchoTaskId));
  QVERIFY(index >= 0);
  QCOMPARE(panel->taskBox()->itemText(index), QStringLiteral("Echo · find the word yes"));
  panel->taskBox()->setCurrentIndex(index);
  QCOMPARE(panel->presetBox()->count(), 2);
  QCOMPARE(panel->presetBox()->itemData(0).toString(), QStringLiteral("quick"));
  auto* d_model = qobject_cast<QSpinBox*>(panel->form()->field(QStringLiteral("d_model")));
  QCOMPARE(d_model->value(), 16);
  QVERIFY(panel->validationMessage().isEmpty());
  QCOMPARE(window.sample()->tryIt()->input()->placeholderText(),
           QStringLiteral("Type words, e.g. maybe yes"));
}

void FakeTaskTest::itTrainsFromTheStartButton() {
  // A run started from the Run dock goes to runs/ under the working directory: make that a
  // temporary one.
  QTemporaryDir dir;
  const QString previous = QDir::currentPath();
  QVERIFY(QDir::setCurrent(dir.path()));
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  RunPresenter* panel = window.runPanel();
  panel->setTask(QString::fromLatin1(kEchoTaskId));
  panel->setPreset(QStringLiteral("quick"));
  qobject_cast<QSpinBox*>(panel->form()->field(QStringLiteral("max_steps")))->setValue(8);
  QSignalSpy ended(window.bridge(), &EngineBridge::runEnded);
  QVERIFY(panel->startAction()->isEnabled());
  panel->startAction()->trigger();
  QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 60000);
  QCOMPARE(window.currentRun()->state(), TrainerState::kFinished);
  QCOMPARE(window.currentRun()->task()->id, std::string(kEchoTaskId));
  QVERIFY(window.windowTitle().contains(QStringLiteral("Echo · find the word yes")));
  QCOMPARE(window.curves()->accuracy()->metricName(), QStringLiteral("echo accuracy"));
  // The echo model's one group, then its aggregates: mean of heads and rollout.
  QTRY_VERIFY_WITH_TIMEOUT(window.attention()->panel()->groupCount() == 3, 5000);
  const AttentionPlotGroup& group = window.attention()->panel()->snapshot().groups[0];
  QCOMPARE(group.name, QStringLiteral("echo heads"));
  QCOMPARE(group.query_title, QStringLiteral("echo word (query)"));
  QVERIFY(window.curves()->loss()->trainSeries().size() == 8);
  QVERIFY(window.currentRun()->folder().startsWith(QDir(dir.path()).canonicalPath()) ||
          window.currentRun()->folder().startsWith(QStringLiteral("runs/")));
  QVERIFY(QDir::setCurrent(previous));
}

// The digit-order task (engine/tasks/digit_order/) brings its own model and its own input, digit
// sequences: registered by one line of the registry, the GUI trains it and shows its attention over
// CLS and the digits, its "Try it" hint and its accuracy, with no GUI file naming it.
void FakeTaskTest::aTaskWithItsOwnModelTrainsAndShows() {
  QTemporaryDir dir;
  const QString previous = QDir::currentPath();
  QVERIFY(QDir::setCurrent(dir.path()));
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  RunPresenter* panel = window.runPanel();
  const QString id = QStringLiteral("digits");
  QVERIFY(panel->taskBox()->findData(id) >= 0);
  panel->setTask(id);
  panel->setPreset(QStringLiteral("tiny"));
  QCOMPARE(window.sample()->tryIt()->input()->placeholderText(),
           QStringLiteral("Type digits, e.g. 1 3 3 7 8 9 9 4"));
  qobject_cast<QSpinBox*>(panel->form()->field(QStringLiteral("max_steps")))->setValue(10);
  QSignalSpy ended(window.bridge(), &EngineBridge::runEnded);
  QVERIFY2(panel->startAction()->isEnabled(), qPrintable(panel->validationMessage()));
  panel->startAction()->trigger();
  QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 60000);
  QCOMPARE(window.currentRun()->state(), TrainerState::kFinished);
  QVERIFY(window.windowTitle().contains(QStringLiteral("Digits · in order?")));
  QTRY_VERIFY_WITH_TIMEOUT(window.attention()->panel()->groupCount() == 3, 5000);
  const AttentionPlotGroup& group = window.attention()->panel()->snapshot().groups[0];
  QCOMPARE(group.name, QStringLiteral("encoder self"));
  QCOMPARE(group.query_title, QStringLiteral("query (CLS, digits)"));
  const LabeledMatrix& head = group.layers.at(0).at(0);
  QCOMPARE(head.col_labels.size(), 9);  // CLS and eight digits
  QCOMPARE(head.col_labels.front(), QStringLiteral("CLS"));
  QCOMPARE(window.curves()->loss()->trainSeries().size(), 10);
  QVERIFY(QDir::setCurrent(previous));
}

// The reversal task (engine/tasks/letter_reversal/) adds a figure (an edit distance, lower is
// better) and a payload (the answer aligned with the reversed word) no other task has: the window
// trains it, shows its figure beside the accuracy and in the Run and Errors docks, its alignment in
// the Sample dock, and its run opens, compares and exports — with no GUI file naming it.
void FakeTaskTest::aTaskWithItsOwnFigureAndPayloadTrainsOpensComparesAndExports() {
  QTemporaryDir dir;
  const QString previous = QDir::currentPath();
  QVERIFY(QDir::setCurrent(dir.path()));
  QString run_dir;
  {
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    RunPresenter* panel = window.runPanel();
    panel->setTask(QStringLiteral("reverse"));
    panel->setPreset(QStringLiteral("tiny"));
    qobject_cast<QSpinBox*>(panel->form()->field(QStringLiteral("max_steps")))->setValue(30);
    QSignalSpy ended(window.bridge(), &EngineBridge::runEnded);
    QVERIFY2(panel->startAction()->isEnabled(), qPrintable(panel->validationMessage()));
    panel->startAction()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 60000);
    QCOMPARE(window.currentRun()->state(), TrainerState::kFinished);
    run_dir = window.currentRun()->folder();
    // Its headline figure beside the accuracy, from its epochs' validation passes.
    QCOMPARE(window.curves()->accuracy()->figureName(), QStringLiteral("edit distance"));
    QVERIFY(window.curves()->accuracy()->figureSeries().size() >= 1);
    QVERIFY2(
        window.runPanel()->progressView()->testText().contains(QStringLiteral("edit distance")),
        qPrintable(window.runPanel()->progressView()->testText()));
    // Its alignment in the Sample dock.
    QTRY_COMPARE_WITH_TIMEOUT(window.sample()->panel()->mode(), SamplePanel::Mode::Alignment, 5000);
    QVERIFY(!window.sample()->panel()->alignmentView()->alignment().columns.empty());
    // The Errors dock titles its columns and its figure as the task does.
    EvaluationRequest request;
    request.data = "builtin";
    request.split = DataSplit::kTest;
    QSignalSpy evaluated(window.errorAnalysis(), &ErrorsPresenter::evaluated);
    QVERIFY(window.errorAnalysis()->evaluate(request));
    QTRY_COMPARE_WITH_TIMEOUT(evaluated.count(), 1, 60000);
    QCOMPARE(evaluated.front().front().toBool(), true);
    QVERIFY2(
        window.errorAnalysis()->panel()->data().summary.contains(QStringLiteral("edit distance")),
        qPrintable(window.errorAnalysis()->panel()->data().summary));
    QCOMPARE(window.errorAnalysis()->panel()->data().terms.truth, QStringLiteral("reversed"));
  }
  // Opened in a new window, compared with itself, exported.
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  test::showAndOpenRun(window, run_dir);
  if (QTest::currentTestFailed()) return;
  QCOMPARE(window.curves()->accuracy()->figureName(), QStringLiteral("edit distance"));
  QVERIFY(window.curves()->accuracy()->figureSeries().size() >= 1);
  QCOMPARE(window.sample()->panel()->mode(), SamplePanel::Mode::Alignment);
  ReplayActions* replay = window.findChild<ReplayActions*>();
  QVERIFY(replay != nullptr);
  QVERIFY(replay->compareAndWait(run_dir, QSize(1200, 700)) != nullptr);
  const QString out = QDir(dir.path()).filePath(QStringLiteral("export"));
  const ExportResult exported = window.exporter()->exportAll(out);
  QVERIFY2(exported.ok(), qPrintable(exported.error));
  QVERIFY(QFile::exists(QDir(out).filePath(QStringLiteral("sample.png"))));
  QVERIFY(QFile::exists(QDir(out).filePath(QStringLiteral("letter_accuracy.csv"))));
  QFile curve(QDir(out).filePath(QStringLiteral("letter_accuracy.csv")));
  QVERIFY(curve.open(QIODevice::ReadOnly));
  QVERIFY(curve.readAll().contains("validation edit distance"));
  QVERIFY(QDir::setCurrent(previous));
}

}  // namespace ascope

QTEST_MAIN(ascope::FakeTaskTest)
#include "fake_task_test.moc"
