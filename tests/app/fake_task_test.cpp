// A task the GUI has never heard of: registered at run time (the test-only echo task), it shows up
// in the Run dock with its presets, trains from the Start button, and its attention, accuracy name,
// window title and "Try it" hint come from its descriptor. No GUI file names it.
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include "app/gui/bridge/current_run.h"
#include "app/gui/bridge/engine_bridge.h"
#include "app/gui/views/attention/timeline/attention_timeline_view.h"
#include "app/gui/views/run/hyperparameter_form.h"
#include "app/gui/views/run/run_panel.h"
#include "app/gui/views/sample/try_it_box.h"
#include "app/gui/window/main/main_window.h"
#include "echo_task.h"
#include "engine/tasks/registry/task_registry.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/curves/metric_curve_panel.h"

namespace ascope {

class FakeTaskTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { QVERIFY(registerEchoTask().ok()); }
  void theRunDockOffersIt();
  void itTrainsFromTheStartButton();
  void aTaskWithItsOwnModelTrainsAndShows();
};

void FakeTaskTest::theRunDockOffersIt() {
  MainWindow window;
  RunPanel* panel = window.panels().run;
  const int index = panel->taskBox()->findData(QString::fromLatin1(kEchoTaskId));
  QVERIFY(index >= 0);
  QCOMPARE(panel->taskBox()->itemText(index), QStringLiteral("Echo · find the word yes"));
  panel->taskBox()->setCurrentIndex(index);
  QCOMPARE(panel->presetBox()->count(), 2);
  QCOMPARE(panel->presetBox()->itemData(0).toString(), QStringLiteral("quick"));
  auto* d_model = qobject_cast<QSpinBox*>(panel->form()->field(QStringLiteral("d_model")));
  QCOMPARE(d_model->value(), 16);
  QVERIFY(panel->validationMessage().isEmpty());
  QCOMPARE(window.panels().try_it->input()->placeholderText(),
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
  RunPanel* panel = window.panels().run;
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
  QCOMPARE(window.panels().accuracy->metricName(), QStringLiteral("echo accuracy"));
  // The echo model's one group, then its aggregates: mean of heads and rollout.
  QTRY_VERIFY_WITH_TIMEOUT(window.panels().attention->panel()->groupCount() == 3, 5000);
  const AttentionPlotGroup& group = window.panels().attention->panel()->snapshot().groups[0];
  QCOMPARE(group.name, QStringLiteral("echo heads"));
  QCOMPARE(group.query_title, QStringLiteral("echo word (query)"));
  QVERIFY(window.panels().loss->trainSeries().size() == 8);
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
  RunPanel* panel = window.panels().run;
  const QString id = QStringLiteral("digits");
  QVERIFY(panel->taskBox()->findData(id) >= 0);
  panel->setTask(id);
  panel->setPreset(QStringLiteral("tiny"));
  QCOMPARE(window.panels().try_it->input()->placeholderText(),
           QStringLiteral("Type digits, e.g. 1 3 3 7 8 9 9 4"));
  qobject_cast<QSpinBox*>(panel->form()->field(QStringLiteral("max_steps")))->setValue(10);
  QSignalSpy ended(window.bridge(), &EngineBridge::runEnded);
  QVERIFY2(panel->startAction()->isEnabled(), qPrintable(panel->validationMessage()));
  panel->startAction()->trigger();
  QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 60000);
  QCOMPARE(window.currentRun()->state(), TrainerState::kFinished);
  QVERIFY(window.windowTitle().contains(QStringLiteral("Digits · in order?")));
  QTRY_VERIFY_WITH_TIMEOUT(window.panels().attention->panel()->groupCount() == 3, 5000);
  const AttentionPlotGroup& group = window.panels().attention->panel()->snapshot().groups[0];
  QCOMPARE(group.name, QStringLiteral("encoder self"));
  QCOMPARE(group.query_title, QStringLiteral("query (CLS, digits)"));
  const LabeledMatrix& head = group.layers.at(0).at(0);
  QCOMPARE(head.col_labels.size(), 9);  // CLS and eight digits
  QCOMPARE(head.col_labels.front(), QStringLiteral("CLS"));
  QCOMPARE(window.panels().loss->trainSeries().size(), 10);
  QVERIFY(QDir::setCurrent(previous));
}

}  // namespace ascope

QTEST_MAIN(ascope::FakeTaskTest)
#include "fake_task_test.moc"
