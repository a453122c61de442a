// The Run dock: presets fill the form, TrainingConfig::validate() messages mark the field they
// name and disable Start, and the commands follow the run's state.
#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/hyperparameter_form.h"
#include "app/gui/views/run_panel.h"
#include "app/gui/views/run_progress_view.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/translation/translation_descriptor.h"

namespace ascope {

class RunPanelTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void presetFillsTheForm();
  void invalidFieldIsHighlightedAndStartDisabled();
  void unreadableLearningRateIsHighlighted();
  void badPatchSizeNamesThePatchField();
  void missingDatasetBlocksStart();
  void commandsFollowTheRunState();
  void openedRunIsReadOnly();
  void startEmitsTheEditedConfig();
  void everyRegisteredTaskIsOffered();
  void stepOnAFinishedOpenedRunStartsNothing();
  void testFigureIsLabelledApartFromValidation();

 private:
  static QSpinBox* spin(RunPanel& panel, const char* key) {
    return qobject_cast<QSpinBox*>(panel.form()->field(QString::fromLatin1(key)));
  }
};

void RunPanelTest::presetFillsTheForm() {
  CurrentRun run;
  RunPanel panel(&run, false);
  panel.setTask(QString::fromLatin1(kTranslationTaskId));
  panel.setPreset(QStringLiteral("laptop"));
  QCOMPARE(spin(panel, "d_model")->value(), 128);
  QCOMPARE(spin(panel, "heads")->value(), 4);
  QCOMPARE(spin(panel, "layers")->value(), 2);
  panel.setPreset(QStringLiteral("tiny"));
  QCOMPARE(spin(panel, "d_model")->value(), 32);
  const TrainingConfig config = panel.currentConfig();
  QCOMPARE(config.task, std::string(kTranslationTaskId));
  QCOMPARE(findTask(config.task).value()->model_shape(config).d_model, std::int64_t{32});
  QVERIFY(!config.stop_on_nonfinite);  // the GUI pauses instead of failing
  QVERIFY(panel.validationMessage().isEmpty());
  QVERIFY(panel.startAction()->isEnabled());
  QCOMPARE(panel.deviceBox()->count(), 1);  // no CUDA offered without a GPU
}

void RunPanelTest::invalidFieldIsHighlightedAndStartDisabled() {
  CurrentRun run;
  RunPanel panel(&run, false);
  panel.setTask(QString::fromLatin1(kImageClassificationTaskId));
  panel.setPreset(QStringLiteral("laptop"));  // hidden 64, 4 heads
  spin(panel, "heads")->setValue(3);
  QVERIFY(panel.validationMessage().contains(QStringLiteral("divisible")));
  QVERIFY(!panel.startAction()->isEnabled());
  QVERIFY(!panel.stepAction()->isEnabled());
  const QStringList marked = panel.form()->highlightedFields();
  QVERIFY2(marked.contains(QStringLiteral("heads")), qPrintable(marked.join(',')));
  QVERIFY(marked.contains(QStringLiteral("d_model")));
  QVERIFY(!marked.contains(QStringLiteral("epochs")));
  QWidget* heads = panel.form()->field(QStringLiteral("heads"));
  QCOMPARE(heads->toolTip(), panel.validationMessage());
  QVERIFY(heads->palette().color(QPalette::Base) != panel.palette().color(QPalette::Base));
  QVERIFY(!panel.messageLabel()->isHidden());
  QVERIFY(panel.messageLabel()->text().contains(QStringLiteral("heads")));

  spin(panel, "heads")->setValue(4);
  QVERIFY(panel.validationMessage().isEmpty());
  QVERIFY(panel.form()->highlightedFields().isEmpty());
  QVERIFY(panel.startAction()->isEnabled());
  QVERIFY(panel.messageLabel()->isHidden());

  spin(panel, "epochs")->setValue(0);
  QCOMPARE(panel.form()->highlightedFields(), QStringList{QStringLiteral("epochs")});
  QVERIFY(!panel.startAction()->isEnabled());
}

void RunPanelTest::unreadableLearningRateIsHighlighted() {
  CurrentRun run;
  RunPanel panel(&run, false);
  auto* lr = qobject_cast<QLineEdit*>(panel.form()->field(QStringLiteral("lr")));
  QVERIFY(lr);
  lr->setText(QStringLiteral("fast"));
  QCOMPARE(panel.form()->highlightedFields(), QStringList{QStringLiteral("lr")});
  QVERIFY(!panel.startAction()->isEnabled());
  lr->setText(QStringLiteral("20"));  // out of (0, 10): the engine's own message
  QVERIFY(panel.validationMessage().startsWith(QStringLiteral("lr must be")));
  QCOMPARE(panel.form()->highlightedFields(), QStringList{QStringLiteral("lr")});
  lr->setText(QStringLiteral("3e-4"));
  QVERIFY(panel.startAction()->isEnabled());
  QCOMPARE(panel.currentConfig().optimization.lr, 3e-4);
}

void RunPanelTest::badPatchSizeNamesThePatchField() {
  CurrentRun run;
  RunPanel panel(&run, false);
  panel.setTask(QString::fromLatin1(kImageClassificationTaskId));
  spin(panel, "patch_size")->setValue(5);
  QVERIFY(panel.validationMessage().contains(QStringLiteral("patch_size")));
  QVERIFY(panel.form()->highlightedFields().contains(QStringLiteral("patch_size")));
  QVERIFY(!panel.startAction()->isEnabled());
}

void RunPanelTest::missingDatasetBlocksStart() {
  CurrentRun run;
  RunPanel panel(&run, false);
  panel.setDataSource(QStringLiteral("/nonexistent/cifar-10-batches-bin"));
  QVERIFY(panel.validationMessage().startsWith(QStringLiteral("data:")));
  QVERIFY(!panel.startAction()->isEnabled());
  panel.setDataSource(QStringLiteral("builtin"));
  QVERIFY(panel.startAction()->isEnabled());
}

void RunPanelTest::commandsFollowTheRunState() {
  CurrentRun run;
  RunPanel panel(&run, false);
  QVERIFY(panel.startAction()->isEnabled());
  QVERIFY(!panel.pauseAction()->isEnabled());
  QVERIFY(!panel.stopAction()->isEnabled());
  run.setState(TrainerState::kRunning);
  QVERIFY(!panel.startAction()->isEnabled());
  QVERIFY(panel.pauseAction()->isEnabled());
  QVERIFY(panel.stopAction()->isEnabled());
  QVERIFY(!panel.stepAction()->isEnabled());
  QVERIFY(!panel.form()->field(QStringLiteral("epochs"))->isEnabled());
  QSignalSpy pause(&panel, &RunPanel::pauseRequested);
  panel.pauseAction()->trigger();
  QCOMPARE(pause.count(), 1);
  run.setState(TrainerState::kPaused);
  QCOMPARE(panel.pauseAction()->text(), QStringLiteral("Resume"));
  QVERIFY(panel.stepAction()->isEnabled());
  QSignalSpy resume(&panel, &RunPanel::resumeRequested);
  QSignalSpy step(&panel, &RunPanel::stepRequested);
  panel.pauseAction()->trigger();
  panel.stepAction()->trigger();
  QCOMPARE(resume.count(), 1);
  QCOMPARE(step.count(), 1);
  run.setState(TrainerState::kFinished);
  QVERIFY(panel.startAction()->isEnabled());
  QVERIFY(panel.form()->field(QStringLiteral("epochs"))->isEnabled());
}

void RunPanelTest::openedRunIsReadOnly() {
  CurrentRun run;
  RunPanel panel(&run, false);
  Expected<TrainingConfig> config = makePreset(kSentimentTaskId, "tiny");
  QVERIFY(config.ok());
  config->epochs = 7;
  panel.showRunConfig(*config, QStringLiteral("/tmp/runs/some_run"));
  QVERIFY(panel.isReadOnly());
  QCOMPARE(spin(panel, "epochs")->value(), 7);
  QCOMPARE(panel.taskBox()->currentData().toString(), QString::fromLatin1(kSentimentTaskId));
  QVERIFY(!panel.form()->field(QStringLiteral("epochs"))->isEnabled());
  QVERIFY(!panel.startAction()->isEnabled());
}

void RunPanelTest::startEmitsTheEditedConfig() {
  CurrentRun run;
  RunPanel panel(&run, false);
  panel.setTask(QString::fromLatin1(kSentimentTaskId));
  panel.setPreset(QStringLiteral("tiny"));
  spin(panel, "batch_size")->setValue(16);
  QSignalSpy start(&panel, &RunPanel::startRequested);
  panel.startAction()->trigger();
  QCOMPARE(start.count(), 1);
  const TrainingConfig config = start.at(0).at(0).value<TrainingConfig>();
  QCOMPARE(config.task, std::string(kSentimentTaskId));
  QCOMPARE(config.batch_size, std::int64_t{16});
  QCOMPARE(start.at(0).at(1).toBool(), false);
}

void RunPanelTest::everyRegisteredTaskIsOffered() {
  CurrentRun run;
  RunPanel panel(&run, false);
  const std::vector<const TaskDescriptor*> tasks = TaskRegistry::instance().all();
  QCOMPARE(panel.taskBox()->count(), static_cast<int>(tasks.size()));
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    QCOMPARE(panel.taskBox()->itemData(static_cast<int>(i)).toString(),
             QString::fromStdString(tasks[i]->id));
    QCOMPARE(panel.taskBox()->itemText(static_cast<int>(i)),
             QString::fromStdString(tasks[i]->title));
  }
  // The preset list is the chosen task's.
  panel.setTask(QString::fromLatin1(kSentimentTaskId));
  QCOMPARE(panel.presetBox()->count(),
           static_cast<int>(TaskRegistry::instance().find(kSentimentTaskId)->presets.size()));
}

void RunPanelTest::stepOnAFinishedOpenedRunStartsNothing() {
  CurrentRun run;
  RunPanel panel(&run, false);
  Expected<TrainingConfig> config = makePreset(kSentimentTaskId, "tiny");
  QVERIFY(config.ok());
  run.showOpened(*config, QStringLiteral("/tmp/runs/some_run"));
  panel.showRunConfig(*config, QStringLiteral("/tmp/runs/some_run"));
  run.setState(TrainerState::kFinished);
  QSignalSpy start(&panel, &RunPanel::startRequested);
  panel.stepAction()->trigger();
  QCOMPARE(start.count(), 0);
}

void RunPanelTest::testFigureIsLabelledApartFromValidation() {
  CurrentRun run;
  RunPanel panel(&run, false);
  RunProgressView* progress = panel.progressView();
  QVERIFY(progress->testText().isEmpty());
  EpochSummary e;
  e.epoch = 3, e.step = 39, e.val_loss = 0.45, e.val_accuracy = 0.8;
  panel.setEpoch(e);
  TestEvaluation t;
  t.epoch = 3, t.step = 39, t.weights_step = 39, t.samples = 1000, t.loss = 0.30127;
  t.accuracy = 0.8716, t.bleu = 21.54;
  panel.setTest(t);
  QCOMPARE(progress->testText(),
           QStringLiteral("<b>Test</b>: accuracy 0.872 · loss 0.3013 · BLEU 21.5 · "
                          "1000 samples · last weights (step 39)"));
  t.weights_step = 26, t.best_weights = true, t.bleu.reset();
  t.samples = 0;  // read back from a metrics.csv that has no count
  panel.setTest(t);
  QCOMPARE(progress->testText(),
           QStringLiteral("<b>Test</b>: accuracy 0.872 · loss 0.3013 · best weights "
                          "(step 26)"));
  progress->reset();  // a new run
  QVERIFY(progress->testText().isEmpty());
}

}  // namespace ascope

QTEST_MAIN(ascope::RunPanelTest)
#include "run_panel_test.moc"
