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
#include "app/gui/views/run/hyperparameter_form.h"
#include "app/gui/views/run/pretrained_model_choice.h"
#include "app/gui/views/run/run_panel.h"
#include "app/gui/views/run/run_progress_view.h"
#include "app/gui/views/run/run_time_projection.h"
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
  void timeLeftIsTimedOnTheRunsOwnSteps();
  void choosingAPretrainedModelSwitchesToItsPreset();

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
  panel.setEpoch(e, kTranslationTaskId);
  TestEvaluation t;
  t.epoch = 3, t.step = 39, t.weights_step = 39, t.samples = 1000, t.loss = 0.30127;
  t.accuracy = 0.8716;
  t.figures.set("cer", 0.4125);
  t.figures.set("bleu", 21.54);
  panel.setTest(t, kTranslationTaskId);
  // The task's headline figure, as it declares it (BLEU, one decimal); the others on hover.
  QCOMPARE(progress->testText(),
           QStringLiteral("<b>Test</b>: accuracy 0.872 · loss 0.3013 · BLEU <b>21.5</b> · "
                          "1000 samples · last weights (step 39)"));
  t.weights_step = 26, t.best_weights = true, t.figures = Figures{};
  t.samples = 0;  // read back from a metrics.csv that has no count
  panel.setTest(t, kTranslationTaskId);
  QCOMPARE(progress->testText(),
           QStringLiteral("<b>Test</b>: accuracy 0.872 · loss 0.3013 · best weights "
                          "(step 26)"));
  progress->reset();  // a new run
  QVERIFY(progress->testText().isEmpty());
}

// Issue 24: "under a minute" for a 3-minute run. The time left is timed on the run's own steps,
// and a validation pass, once one has been timed, is counted for every pass still to come.
void RunPanelTest::timeLeftIsTimedOnTheRunsOwnSteps() {
  TrainingConfig config = *makePreset(kSentimentTaskId, "laptop");
  config.epochs = 4;
  RunTimeProjection projection;
  projection.start(config);
  const std::int64_t per_epoch = 100;
  const auto step = [&](std::int64_t s, double elapsed) {
    StepMetrics m;
    m.step = s;
    m.epoch = static_cast<int>((s - 1) / per_epoch + 1);
    m.total_steps = 4 * per_epoch;
    m.elapsed_s = elapsed;
    return m;
  };
  std::vector<StepMetrics> first;
  for (int s = 1; s <= 4; ++s) first.push_back(step(s, 0.25 * s));
  projection.addSteps(first);
  QVERIFY(!projection.isTimed());  // four steps are not enough to go by
  std::vector<StepMetrics> more;
  for (int s = 5; s <= 100; ++s) more.push_back(step(s, 0.25 * s));
  // A probe now and then takes longer; it is not the step time.
  more[20].elapsed_s += 0.05;
  projection.addSteps(more);
  QVERIFY(projection.isTimed());
  QCOMPARE(projection.stepSeconds(), 0.25);
  QVERIFY(!projection.evaluationTimed());
  // 300 steps and 4 passes (estimated from the step time) and the final test are left.
  const double estimated = *projection.secondsLeft();
  QVERIFY2(estimated > 300 * 0.25 && estimated < 300 * 0.25 + 6 * 10,
           qPrintable(QString::number(estimated)));

  // The pass at the end of epoch 1 takes 6 s: the step after it comes 6.25 s later, reported in
  // the same drain as the pass.
  projection.addSteps({step(101, 25.0 + 6.25), step(102, 25.0 + 6.5)});
  projection.addEvaluation(100);
  QVERIFY(projection.evaluationTimed());
  QCOMPARE(projection.evaluationSeconds(), 6.0);
  QCOMPARE(projection.stepSeconds(), 0.25);
  // 298 steps, the passes after epochs 2, 3 and 4, and the final test (at least one pass).
  const double left = *projection.secondsLeft();
  QVERIFY2(left >= 298 * 0.25 + 3 * 6.0 + 6.0 - 1e-6, qPrintable(QString::number(left)));
  QVERIFY(projection.note().contains(QStringLiteral("timed over")));
  QCOMPARE(*projection.totalSeconds(), 25.0 + 6.5 + left);
}

// Issue 24: Train again → Model → a BERT folder kept the laptop preset (lr 0.003, batch 64) and
// the from-scratch architecture; the run ended at chance. The preset follows the model now, the
// form shows the model's own sizes read-only, and a from-scratch preset is refused with it.
void RunPanelTest::choosingAPretrainedModelSwitchesToItsPreset() {
  CurrentRun run;
  RunPanel panel(&run, false);
  panel.setTask(QString::fromLatin1(kSentimentTaskId));
  QCOMPARE(panel.presetBox()->currentData().toString(), QStringLiteral("laptop"));
  const QString bert = QStringLiteral(ATTENTIONSCOPE_FIXTURES_DIR "/hf/tiny_bert");
  panel.modelChoice()->chooseFolder(bert);
  QCOMPARE(panel.presetBox()->currentData().toString(), QStringLiteral("finetune"));
  QTRY_VERIFY_WITH_TIMEOUT(panel.form()->showsPretrainedShape(), 5000);
  QCOMPARE(spin(panel, "layers")->value(), 2);  // tiny_bert's config.json
  QCOMPARE(spin(panel, "heads")->value(), 4);
  QCOMPARE(spin(panel, "d_model")->value(), 32);
  QVERIFY(!spin(panel, "layers")->isEnabled());
  QVERIFY2(panel.validationMessage().isEmpty(), qPrintable(panel.validationMessage()));
  const TrainingConfig config = panel.currentConfig();
  QCOMPARE(QString::fromStdString(config.preset), QStringLiteral("finetune"));
  QCOMPARE(config.optimization.lr, 1e-5);
  // Back to laptop by hand: refused, with a message that says why.
  panel.setPreset(QStringLiteral("laptop"));
  QVERIFY(
      panel.validationMessage().contains(QStringLiteral("fine-tuned with the finetune preset")));
  QVERIFY(!panel.startAction()->isEnabled());
  // The task's own model again: its default preset, its own sizes, editable.
  panel.setPreset(QStringLiteral("finetune"));
  panel.modelChoice()->chooseFolder(QString());
  QCOMPARE(panel.presetBox()->currentData().toString(), QStringLiteral("laptop"));
  QVERIFY(!panel.form()->showsPretrainedShape());
  QVERIFY(spin(panel, "layers")->isEnabled());
}

}  // namespace ascope

QTEST_MAIN(ascope::RunPanelTest)
#include "run_panel_test.moc"
