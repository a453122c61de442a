// The Run dock: presets fill the form, TrainingConfig::validate() messages mark the field they
// name and disable Start, and the commands follow the run's state.
#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <deque>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/run/hyperparameter_form.h"
#include "app/gui/views/run/pretrained_model_choice.h"
#include "app/gui/views/run/run_presenter.h"
#include "app/gui/views/run/run_progress_view.h"
#include "app/gui/views/run/run_time_projection.h"
#include "app/gui/window/scripted/eta_track.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "test_paths.h"

namespace ascope {

class RunPanelTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void presetFillsTheForm();
  void devicesAreDescribed();
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
  void timeLeftHoldsALoadedMachineInItsRange();
  void timeLeftReadsAsARange();
  void etaTrackMeasuresTheEstimateAgainstTheRealEnd();
  void choosingAPretrainedModelSwitchesToItsPreset();
  void anOpenedRunAfterAFineTuneShowsItsOwnModel();

 private:
  static QSpinBox* spin(RunPresenter& panel, const char* key) {
    return qobject_cast<QSpinBox*>(panel.form()->field(QString::fromLatin1(key)));
  }
};

void RunPanelTest::presetFillsTheForm() {
  CurrentRun run;
  RunPresenter panel(&run, false);
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

void RunPanelTest::devicesAreDescribed() {
  CurrentRun run;
  RunPresenter with_gpu(&run, true);
  TrainingDevice cpu{"cpu", "Some CPU", 8ULL << 30, true,
                     "Some CPU, 4 cores, 8.0 GiB · LibTorch 2.6.0"};
  TrainingDevice gpu{"cuda", "NVIDIA H200", 140ULL << 30, true,
                     "NVIDIA H200, 140.0 GiB · LibTorch 2.11.0, CUDA 13.0"};
  with_gpu.describeDevices({cpu, gpu});
  QComboBox* box = with_gpu.deviceBox();
  QCOMPARE(box->count(), 2);
  QCOMPARE(box->itemText(1), QStringLiteral("CUDA GPU (NVIDIA H200)"));
  QCOMPARE(box->itemData(0, Qt::ToolTipRole).toString(), QString::fromStdString(cpu.text));
  QCOMPARE(box->itemData(1, Qt::ToolTipRole).toString(), QString::fromStdString(gpu.text));
  QVERIFY(box->toolTip().contains(QStringLiteral("CPU: Some CPU, 4 cores")));
  // Without a GPU LibTorch can use: CPU alone offered, the tooltip says why.
  RunPresenter without(&run, false);
  gpu.usable = false;
  gpu.text = "no NVIDIA driver (libcuda.so.1) · LibTorch 1.13.1, built without CUDA";
  without.describeDevices({cpu, gpu});
  QCOMPARE(without.deviceBox()->count(), 1);
  QVERIFY(without.deviceBox()->toolTip().contains(QStringLiteral("CUDA: no NVIDIA driver")));
}

void RunPanelTest::invalidFieldIsHighlightedAndStartDisabled() {
  CurrentRun run;
  RunPresenter panel(&run, false);
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
  RunPresenter panel(&run, false);
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
  RunPresenter panel(&run, false);
  panel.setTask(QString::fromLatin1(kImageClassificationTaskId));
  spin(panel, "patch_size")->setValue(5);
  QVERIFY(panel.validationMessage().contains(QStringLiteral("patch_size")));
  QVERIFY(panel.form()->highlightedFields().contains(QStringLiteral("patch_size")));
  QVERIFY(!panel.startAction()->isEnabled());
  // The field is there because the ViT declares it (TaskDescriptor::shape_fields); a task that
  // does not has no patch field, and its config gets no patch size from the form.
  QVERIFY(!spin(panel, "patch_size")->isHidden());
  panel.setTask(QString::fromLatin1(kSentimentTaskId));
  QVERIFY(spin(panel, "patch_size")->isHidden());
  QVERIFY(!spin(panel, "heads")->isHidden());
  QVERIFY(panel.validationMessage().isEmpty());
}

void RunPanelTest::missingDatasetBlocksStart() {
  CurrentRun run;
  RunPresenter panel(&run, false);
  panel.setDataSource(QStringLiteral("/nonexistent/cifar-10-batches-bin"));
  QVERIFY(panel.validationMessage().startsWith(QStringLiteral("data:")));
  QVERIFY(!panel.startAction()->isEnabled());
  panel.setDataSource(QStringLiteral("builtin"));
  QVERIFY(panel.startAction()->isEnabled());
}

void RunPanelTest::commandsFollowTheRunState() {
  CurrentRun run;
  RunPresenter panel(&run, false);
  QVERIFY(panel.startAction()->isEnabled());
  QVERIFY(!panel.pauseAction()->isEnabled());
  QVERIFY(!panel.stopAction()->isEnabled());
  run.setState(TrainerState::kRunning);
  QVERIFY(!panel.startAction()->isEnabled());
  QVERIFY(panel.pauseAction()->isEnabled());
  QVERIFY(panel.stopAction()->isEnabled());
  QVERIFY(!panel.stepAction()->isEnabled());
  QVERIFY(!panel.form()->field(QStringLiteral("epochs"))->isEnabled());
  QSignalSpy pause(&panel, &RunPresenter::pauseRequested);
  panel.pauseAction()->trigger();
  QCOMPARE(pause.count(), 1);
  run.setState(TrainerState::kPaused);
  QCOMPARE(panel.pauseAction()->text(), QStringLiteral("Resume"));
  QVERIFY(panel.stepAction()->isEnabled());
  QSignalSpy resume(&panel, &RunPresenter::resumeRequested);
  QSignalSpy step(&panel, &RunPresenter::stepRequested);
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
  RunPresenter panel(&run, false);
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
  RunPresenter panel(&run, false);
  panel.setTask(QString::fromLatin1(kSentimentTaskId));
  panel.setPreset(QStringLiteral("tiny"));
  spin(panel, "batch_size")->setValue(16);
  QSignalSpy start(&panel, &RunPresenter::startRequested);
  panel.startAction()->trigger();
  QCOMPARE(start.count(), 1);
  const TrainingConfig config = start.at(0).at(0).value<TrainingConfig>();
  QCOMPARE(config.task, std::string(kSentimentTaskId));
  QCOMPARE(config.batch_size, std::int64_t{16});
  QCOMPARE(start.at(0).at(1).toBool(), false);
}

void RunPanelTest::everyRegisteredTaskIsOffered() {
  CurrentRun run;
  RunPresenter panel(&run, false);
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
  RunPresenter panel(&run, false);
  Expected<TrainingConfig> config = makePreset(kSentimentTaskId, "tiny");
  QVERIFY(config.ok());
  run.showOpened(*config, QStringLiteral("/tmp/runs/some_run"));
  panel.showRunConfig(*config, QStringLiteral("/tmp/runs/some_run"));
  run.setState(TrainerState::kFinished);
  QSignalSpy start(&panel, &RunPresenter::startRequested);
  panel.stepAction()->trigger();
  QCOMPARE(start.count(), 0);
}

void RunPanelTest::testFigureIsLabelledApartFromValidation() {
  CurrentRun run;
  RunPresenter panel(&run, false);
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

// "under a minute" for a 3-minute run. The time left is timed on the run's own steps,
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

// A laptop run on a loaded machine saw its ETA jump 5:58 → 19:38 → 5:58 → 10:32: the
// median of the recent steps alone followed every change of load. A run of 1000 steps whose
// machine is busy three times (steps 2½ and 3 times slower for a while) is projected at every
// step, against its real end: the blend with the run's average errs by far less than the median
// alone, the stated range holds the real end most of the time, and it narrows as the run goes.
void RunPanelTest::timeLeftHoldsALoadedMachineInItsRange() {
  TrainingConfig config = *makePreset(kSentimentTaskId, "laptop");
  config.epochs = 4;
  config.eval_max_samples = 0;  // the final test is one more pass
  constexpr std::int64_t kSteps = 1000, kPerEpoch = 250;
  constexpr double kPass = 3.0;
  const auto stepTime = [](std::int64_t s) {
    double t = 0.2;
    if (s >= 150 && s < 260) t = 0.5;
    if (s >= 500 && s < 560) t = 0.6;
    if (s >= 700 && s < 900) t = 0.3;
    return t * (1.0 + 0.1 * std::sin(static_cast<double>(s) * 1.7));  // jitter, ±10 %
  };
  std::vector<double> elapsed(kSteps + 1, 0.0);
  for (std::int64_t s = 1; s <= kSteps; ++s) {
    elapsed[s] = elapsed[s - 1] + stepTime(s) + ((s - 1) % kPerEpoch == 0 && s > 1 ? kPass : 0);
  }
  const double end = elapsed[kSteps] + kPass + kPass;  // the last pass and the final test
  RunTimeProjection projection;
  projection.start(config);
  std::deque<double> recent;  // the median-only estimate the window showed before
  double worst = 0, worst_median_only = 0;
  int samples = 0, inside = 0;
  double width_early = 0, width_late = 0;
  for (std::int64_t s = 1; s <= kSteps; ++s) {
    StepMetrics m;
    m.step = s;
    m.epoch = static_cast<int>((s - 1) / kPerEpoch + 1);
    m.total_steps = kSteps;
    m.elapsed_s = elapsed[s];
    projection.addSteps({m});
    if (s > 1 && (s - 1) % kPerEpoch == 0) projection.addEvaluation(s - 1);
    if (s > 1 && (s - 1) % kPerEpoch != 0) {
      recent.push_back(elapsed[s] - elapsed[s - 1]);
      if (recent.size() > 64) recent.pop_front();
    }
    if (s < kSteps / 10) continue;  // the first tenth: little to go by, for either
    const std::optional<double> left = projection.secondsLeft();
    const std::optional<RunTimeProjection::Range> range = projection.rangeLeft();
    QVERIFY(left && range);
    QVERIFY(range->low <= *left && *left <= range->high);
    const double said_end = elapsed[s] + *left;
    worst = std::max(worst, std::fabs(said_end - end) / end);
    std::vector<double> sorted(recent.begin(), recent.end());
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    const int passes_left = static_cast<int>(4 - (s - 1) / kPerEpoch) + 1;
    const double median_only_end = elapsed[s] +
                                   static_cast<double>(kSteps - s) * sorted[sorted.size() / 2] +
                                   passes_left * kPass;
    worst_median_only = std::max(worst_median_only, std::fabs(median_only_end - end) / end);
    ++samples;
    if (elapsed[s] + range->low <= end && end <= elapsed[s] + range->high) ++inside;
    if (s == 150) width_early = (range->high - range->low) / end;
    if (s == 950) width_late = (range->high - range->low) / end;
  }
  const QByteArray figures = QStringLiteral(
                                 "worst error %1 (median alone %2), real end in range %3 of %4, "
                                 "width %5 → %6")
                                 .arg(worst)
                                 .arg(worst_median_only)
                                 .arg(inside)
                                 .arg(samples)
                                 .arg(width_early)
                                 .arg(width_late)
                                 .toUtf8();
  QVERIFY2(worst < 0.6 * worst_median_only, figures.constData());
  QVERIFY2(worst < 0.35, figures.constData());
  QVERIFY2(inside >= samples * 3 / 4, figures.constData());
  QVERIFY2(width_late < width_early / 2, figures.constData());
}

void RunPanelTest::timeLeftReadsAsARange() {
  using R = RunTimeProjection::Range;
  QCOMPARE(RunTimeProjection::rangeText(R{361, 479}), QStringLiteral("about 6–8 min"));
  QCOMPARE(RunTimeProjection::rangeText(R{400, 410}), QStringLiteral("about 6–7 min"));
  QCOMPARE(RunTimeProjection::rangeText(R{420, 480}), QStringLiteral("about 7–8 min"));
  QCOMPARE(RunTimeProjection::rangeText(R{41, 52}), QStringLiteral("about 40–55 s"));
  QCOMPARE(RunTimeProjection::rangeText(R{45, 45}), QStringLiteral("about 45 s"));
  QCOMPARE(RunTimeProjection::rangeText(R{0, 0.2}), QStringLiteral("about 0–5 s"));
  QCOMPARE(RunTimeProjection::rangeText(R{30, 100}), QStringLiteral("under 2 min"));
  QCOMPARE(RunTimeProjection::rangeText(R{7200, 9000}), QStringLiteral("about 2–2.5 h"));
}

void RunPanelTest::etaTrackMeasuresTheEstimateAgainstTheRealEnd() {
  EtaTrack track;
  QVERIFY(!track.verdict(0, 100).has_value());
  track.add(10, 80, 70, 95);    // says 90 (70…105) at 10 s: the end, 100, is inside
  track.add(20, 100, 90, 110);  // says 120 (110…130): 20 % off, outside
  track.add(50, 50, 45, 55);    // says 100: right
  track.add(120, 0, 0, 0);      // after the end: not counted
  const std::optional<EtaTrack::Verdict> v = track.verdict(0, 100);
  QVERIFY(v.has_value());
  QCOMPARE(v->estimates, std::size_t{3});
  QCOMPARE(v->worst_error, 0.2);
  QCOMPARE(v->worst_at_s, 20.0);
  QCOMPARE(v->worst_error_later, 0.2);  // 20 s is past a tenth of the 100-s run
  QCOMPARE(v->in_range_share, 2.0 / 3.0);
  QVERIFY(!track.verdict(100, 100).has_value());  // an empty run
}

// A ViT fine-tune of tiny_vit, then File → Open of a run trained from scratch: the
// form kept the fine-tune's sizes (patch size 0: "patch_size must be at least 1, got 0"), and
// "Train again with these settings" kept them, with Start disabled.
void RunPanelTest::anOpenedRunAfterAFineTuneShowsItsOwnModel() {
  CurrentRun run;
  RunPresenter panel(&run, false);
  panel.setTask(QString::fromLatin1(kImageClassificationTaskId));
  panel.modelChoice()->chooseFolder(QString::fromUtf8(test_paths::fixturesDir()) +
                                    QStringLiteral("/hf/tiny_vit"));
  QTRY_VERIFY_WITH_TIMEOUT(panel.form()->showsPretrainedShape(), 5000);
  const int fine_tune_width = spin(panel, "d_model")->value();

  TrainingConfig opened = *makePreset(kImageClassificationTaskId, "laptop");
  const ModelShape own = TaskRegistry::instance().find(opened.task)->model_shape(opened);
  QVERIFY(own.d_model != fine_tune_width);  // else the check below could not tell them apart
  panel.showRunConfig(opened, QStringLiteral("/nonexistent/opened-run"));
  QVERIFY(!panel.form()->showsPretrainedShape());
  QCOMPARE(spin(panel, "layers")->value(), static_cast<int>(own.layers));
  QCOMPARE(spin(panel, "d_model")->value(), static_cast<int>(own.d_model));
  QCOMPARE(spin(panel, "patch_size")->value(), static_cast<int>(own.patch_size));

  QPushButton* again = nullptr;
  for (QPushButton* b : panel.findChildren<QPushButton*>()) {
    if (b->text() == QStringLiteral("Train again with these settings")) again = b;
  }
  QVERIFY(again != nullptr);
  again->click();
  QVERIFY2(panel.validationMessage().isEmpty(), qPrintable(panel.validationMessage()));
  QVERIFY(panel.startAction()->isEnabled());
  const TrainingConfig config = panel.currentConfig();
  const ModelShape trained = TaskRegistry::instance().find(config.task)->model_shape(config);
  QCOMPARE(trained.d_model, own.d_model);
  QCOMPARE(trained.patch_size, own.patch_size);
}

// Train again → Model → a BERT folder kept the laptop preset (lr 0.003, batch 64) and
// the from-scratch architecture; the run ended at chance. The preset follows the model now, the
// form shows the model's own sizes read-only, and a from-scratch preset is refused with it.
void RunPanelTest::choosingAPretrainedModelSwitchesToItsPreset() {
  CurrentRun run;
  RunPresenter panel(&run, false);
  panel.setTask(QString::fromLatin1(kSentimentTaskId));
  QCOMPARE(panel.presetBox()->currentData().toString(), QStringLiteral("laptop"));
  const QString bert =
      QString::fromUtf8(test_paths::fixturesDir()) + QStringLiteral("/hf/tiny_bert");
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
