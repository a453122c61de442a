#include "app/gui/window/scripted/scripted_run.h"

#include "app/gui/window/scripted/scripted_evaluation.h"

#include <QBuffer>
#include <QComboBox>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "app/gui/bridge/current_run.h"
#include "app/gui/bridge/engine_bridge.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/computation/computation_presenter.h"
#include "app/gui/views/curves/curves_presenter.h"
#include "app/gui/views/encoding/encoding_presenter.h"
#include "app/gui/views/heads/heads_presenter.h"
#include "app/gui/views/log/log_presenter.h"
#include "app/gui/views/run/hyperparameter_form.h"
#include "app/gui/views/run/pretrained_model_choice.h"
#include "app/gui/views/run/run_presenter.h"
#include "app/gui/views/run/run_progress_view.h"
#include "app/gui/views/sample/sample_presenter.h"
#include "app/gui/views/sample/try_it_box.h"
#include "app/gui/window/dialogs/pretrained_inspection_window.h"
#include "app/gui/window/dialogs/run_comparison_window.h"
#include "app/gui/window/export/attention_video_actions.h"
#include "app/gui/window/export/export_actions.h"
#include "app/gui/window/lecture/font_zoom.h"
#include "app/gui/window/lecture/presentation_controls.h"
#include "app/gui/window/lecture/presentation_mode.h"
#include "app/gui/window/lesson/lesson_actions.h"
#include "app/gui/window/lesson/lesson_player.h"
#include "app/gui/window/main/stall_monitor.h"
#include "app/gui/window/run/replay_actions.h"
#include "app/gui/window/run/run_controller.h"
#include "app/gui/window/scripted/scriptable_window.h"
#include "engine/core/output_file.h"
#include "engine/runfolder/own_files.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/attention/prediction_round.h"
#include "widgets/common/fitting_label.h"
#include "widgets/common/log_panel.h"
#include "widgets/computation/computation_view.h"
#include "widgets/curves/metric_curve_panel.h"
#include "widgets/encoding/positional_encoding_panel.h"
#include "widgets/samples/sample_panel.h"
#include "widgets/tables/head_ablation_table.h"
#include "widgets/tables/head_stats_grid_panel.h"

namespace ascope {
namespace {

void say(const QString& text) {
  std::fprintf(stdout, "attentionscope: %s\n", qPrintable(text));
  std::fflush(stdout);
}

}  // namespace

ScriptedRun::ScriptedRun(ScriptableWindow* window, AppOptions options, QObject* parent)
    : QObject(parent),
      window_(window),
      options_(std::move(options)),
      stalls_(new StallMonitor(this)) {
  timeout_.setSingleShot(true);
  connect(&timeout_, &QTimer::timeout, this, [this] {
    // Asked now, so the trainer is already winding down while the event loop quits.
    window_->bridge()->stop();
    fail(kTimedOut, tr("timed out after %1 s").arg(options_.timeout_s));
  });
}

void ScriptedRun::begin() {
  PresentationControls* lecture = window_->presentationControls();
  lecture->setFullScreen(!options_.scripted());  // screenshots keep --size
  if (options_.high_contrast) lecture->setHighContrast(true);
  if (options_.zoom != 0) lecture->fontZoom()->setSteps(options_.zoom);
  if (options_.presentation) lecture->presentation()->enter();
  RunPresenter* run = window_->runPanel();
  if (!options_.task.isEmpty()) {
    run->setTask(options_.task);
    run->setDataSource(options_.data);
  }
  // The model before the preset: choosing one switches to the fine-tune preset, and a preset
  // given besides must still be the one checked (a from-scratch one is refused).
  if (!options_.model.isEmpty()) run->modelChoice()->chooseFolder(options_.model);
  // Without --task a preset applies to the task the Run dock shows.
  if (!options_.preset.isEmpty()) {
    if (run->presetBox()->findData(options_.preset) < 0) {
      return fail(2, tr("--preset %1 is not a preset of the task %2")
                         .arg(options_.preset, run->taskBox()->currentData().toString()));
    }
    run->setPreset(options_.preset);
  }
  if (!options_.device.isEmpty()) {
    const int index = run->deviceBox()->findData(options_.device);
    if (index < 0) return fail(2, tr("device %1 is not available here").arg(options_.device));
    run->deviceBox()->setCurrentIndex(index);
  }
  if (!options_.scripted()) return;
  // Every file the session will write, checked before the work: a FIFO or a device named as the
  // screenshot blocked the window (and its --timeout) for good, or was replaced.
  for (const auto& [option, path] :
       {std::pair{"--screenshot", &options_.screenshot}, std::pair{"--report", &options_.report},
        std::pair{"--export-video", &options_.export_video},
        std::pair{"--lesson-out", &options_.lesson_out}}) {
    if (path->isEmpty()) continue;
    if (const Status s = checkOutputFile(QFile::encodeName(*path).toStdString(), outputInputs());
        !s.ok()) {
      return fail(2, QStringLiteral("%1: %2").arg(QLatin1String(option),
                                                  QString::fromStdString(s.error())));
    }
  }
  timeout_.start(static_cast<int>(std::ceil(options_.timeout_s * 1000)));
  wall_.start();

  if (options_.train_steps > 0) {
    const bool whole = options_.train_steps == AppOptions::kWholeRun;
    auto* steps = qobject_cast<QSpinBox*>(run->form()->field(QStringLiteral("max_steps")));
    if (steps != nullptr && !whole) {
      steps->setValue(
          static_cast<int>(std::min<long long>(options_.train_steps, steps->maximum())));
    }
    if (!run->validationMessage().isEmpty()) return fail(2, run->validationMessage());
    TrainingConfig config = run->currentConfig();
    config.max_steps = whole ? 0 : options_.train_steps;
    config.out_dir = options_.out_dir.toStdString();
    EngineBridge* bridge = window_->bridge();
    connect(window_->currentRun(), &CurrentRun::stateChanged, this, [this](TrainerState state) {
      if (state == TrainerState::kRunning && !stalls_->isRunning()) stalls_->start();
    });
    connect(bridge, &EngineBridge::failed, this,
            [this](const QString& message) { last_failure_ = message; });
    connect(bridge, &EngineBridge::runEnded, this, &ScriptedRun::onRunEnded);
    followProjections();
    const QString error = window_->controller()->startRun(config);
    if (!error.isEmpty()) return fail(2, error);
    // On screen from the start: the dock recomputes its head at every probe while it trains
    // (its GUI-thread time is in the report's panels).
    if (options_.computation) window_->raiseDock(tr("Computation"));
    say(tr("training %1 (%2 preset, %3) for %4")
            .arg(options_.task, run->presetBox()->currentData().toString(), options_.data)
            .arg(whole ? tr("the preset's whole run") : tr("%1 steps").arg(options_.train_steps)));
    return;
  }
  if (!options_.inspect_model.isEmpty()) return inspect();
  if (!options_.lesson.isEmpty()) return playLesson();
  if (!options_.open_dir.isEmpty()) {
    connect(window_->controller(), &RunController::runOpened, this, &ScriptedRun::onRunOpened);
    connect(window_->controller(), &RunController::openFailed, this,
            [this](const QString& message) { fail(1, message); });
    window_->controller()->openRun(options_.open_dir);
    return;
  }
  settleAndFinish();
}

void ScriptedRun::followProjections() {
  RunProgressView* progress = window_->runPanel()->progressView();
  connect(progress, &RunProgressView::projected, this, [this, progress](const QString& note) {
    say(tr("time: %1").arg(note));
    if (first_projection_s_ > 0) return;
    // When the session started, on this clock: now, less the time the run reports so far.
    first_projection_at_s_ =
        wall_.elapsed() / 1000.0 - window_->bridge()->stats().last_step.elapsed_s;
    first_projection_s_ = progress->projectedTotalSeconds().value_or(0);
  });
  connect(progress, &RunProgressView::summaryChanged, this, [this, progress] {
    const double now = wall_.elapsed() / 1000.0;
    const std::optional<double> left = progress->projectedSecondsLeft();
    const std::optional<RunTimeProjection::Range> range = progress->projectedRangeLeft();
    // Twice a second is how often anyone could read it.
    if (!left || !range || now - eta_sampled_at_s_ < 0.5) return;
    eta_sampled_at_s_ = now;
    eta_.add(now, *left, range->low, range->high);
  });
}

void ScriptedRun::onRunEnded(TrainerState state) {
  stalls_->stop();
  training_wall_s_ = wall_.elapsed() / 1000.0;
  if (state == TrainerState::kFailed) {
    return fail(1, tr("training failed: %1").arg(last_failure_));
  }
  settleAndFinish();
}

void ScriptedRun::onRunOpened() {
  settleAndFinish();
}

void ScriptedRun::playLesson() {
  LessonActions* actions = window_->lessonActions();
  LessonPlayer* player = window_->lessonPlayer();
  connect(actions, &LessonActions::message, this, [this](const QString& text) { say(text); });
  connect(actions, &LessonActions::lessonOpened, this, [this, player](bool ok) {
    if (!ok) return fail(1, tr("--lesson %1 did not open").arg(options_.lesson));
    if (options_.lesson_moment > static_cast<int>(player->lesson().moments.size())) {
      return fail(2, tr("--moment %1: the lesson has %2 moments to play")
                         .arg(options_.lesson_moment)
                         .arg(player->lesson().moments.size()));
    }
    player->play(options_.lesson_moment - 1);
  });
  connect(player, &LessonPlayer::momentShown, this, [this](int index, const QString& problem) {
    if (!problem.isEmpty()) return fail(1, tr("moment %1: %2").arg(index + 1).arg(problem));
    say(tr("moment %1: %2")
            .arg(index + 1)
            .arg(QString::fromStdString(
                window_->lessonPlayer()->lesson().moments[static_cast<size_t>(index)].question)));
    PredictionRound* round = window_->attention()->panel()->predictionRound();
    if (!options_.lesson_tally.isEmpty()) {
      const QString tally_problem = round->enterTally(options_.lesson_tally);
      if (!tally_problem.isEmpty()) say(tr("--tally: %1").arg(tally_problem));
    }
    if (options_.lesson_reveal) round->reveal();
    settleAndFinish();
  });
  actions->openLesson(options_.lesson);
}

void ScriptedRun::settleAndFinish() {
  AttentionPresenter* view = window_->attention();
  if (options_.probe_sample >= 0) {
    view->waitForLoad();
    view->setProbeIndex(options_.probe_sample);
    view->waitForLoad();
  }
  if (options_.step >= 0) {
    AttentionPresenter* timeline = window_->attention();
    timeline->waitForLoad();  // the list of snapshots of a just-finished run
    timeline->showStep(options_.step);
    timeline->waitForLoad();
    if (timeline->snapshotCount() == 0) {
      say(tr("--step %1: the run has no stored snapshot").arg(options_.step));
    } else {
      say(tr("showing step %1 (the stored snapshot nearest step %2)")
              .arg(timeline->shownStep())
              .arg(options_.step));
    }
  }
  if (!options_.group.isEmpty()) {
    view->waitForLoad();
    AttentionHeadGridPanel* panel = view->panel();
    const int index = panel->groupSelector()->findText(options_.group);
    if (index < 0) {
      say(tr("--group: no attention group \"%1\" on screen").arg(options_.group));
    } else {
      panel->setCurrentGroup(index);
    }
  }
  if (options_.words) {
    view->waitForLoad();
    AttentionHeadGridPanel* panel = view->panel();
    panel->setShowsWords(true);  // kept for what is asked next
    if (!panel->offersWords()) say(tr("--words: the attention shown has no subword pieces"));
  }
  for (const QString& title : options_.raise_docks) {
    if (!window_->raiseDock(title)) say(tr("--raise: no dock titled \"%1\"").arg(title));
  }
  if (!options_.evaluate_split.isEmpty()) return evaluate();
  if (options_.ablate_samples > 0) return ablate();
  askOrFinish();
}

void ScriptedRun::evaluate() {
  auto* evaluation = new ScriptedEvaluation(window_->errorAnalysis(), this);
  connect(evaluation, &ScriptedEvaluation::finished, this,
          [this, evaluation](bool ok, const QString& text) {
            evaluation->deleteLater();
            if (!ok) return fail(1, tr("--evaluate: %1").arg(text));
            say(tr("evaluation: %1").arg(text));
            window_->raiseDock(tr("Errors"));
            if (options_.ablate_samples > 0) return ablate();
            askOrFinish();
          });
  QString error;
  // Without --data, the run shown is scored on its own data, as the Errors dock's dialog offers.
  if (!evaluation->start(options_.data_given ? options_.data : QString(), options_.evaluate_split,
                         &error)) {
    return fail(2, tr("--evaluate: %1").arg(error));
  }
}

void ScriptedRun::ablate() {
  HeadAblationTable* table = window_->headAnalysis()->ablation();
  // --data with --open names the run's data again: the ablation may read it.
  if (!options_.open_dir.isEmpty() && options_.data != QLatin1String("builtin")) {
    window_->headAnalysis()->setNamedData(options_.data);
  }
  table->samplesBox()->setValue(options_.ablate_samples);
  table->runButton()->click();
  if (!table->isRunning()) {
    // Refused before it started: no run, or data the command line did not name.
    return fail(2, tr("--ablate: %1").arg(table->messageLabel()->text()));
  }
  auto* poll = new QTimer(this);
  poll->setInterval(100);
  connect(poll, &QTimer::timeout, this, [this, table, poll] {
    if (table->isRunning()) return;
    poll->deleteLater();
    if (table->result().rows.empty()) {
      // Failed, or cancelled (a followed run that restarted is opened again, which cancels it).
      const QString why = table->messageLabel()->text();
      return fail(1, tr("--ablate: the ablation did not finish%1")
                         .arg(why.isEmpty() ? QString() : QStringLiteral(": ") + why));
    }
    say(tr("ablation: %1").arg(table->baselineLabel()->text()));
    if (!table->messageLabel()->text().isEmpty()) say(table->messageLabel()->text());
    askOrFinish();
  });
  poll->start();
}

void ScriptedRun::askOrFinish() {
  if (options_.ask.isEmpty()) return finishNow();
  TryItBox* try_it = window_->sample()->tryIt();
  connect(try_it, &TryItBox::answered, this, [this](const QString& text, bool ok) {
    answer_ = text;
    ask_failed_ = !ok;
    say(tr("try it: %1 → %2").arg(options_.ask, ok ? text : tr("no answer: %1").arg(text)));
    finishNow();
  });
  const TaskDescriptor* task = window_->currentRun()->task();
  if (task != nullptr && task->input == TaskInput::kImage) {
    try_it->askImage(options_.ask);
  } else {
    try_it->input()->setText(options_.ask);
    if (options_.beam > 0) try_it->beamBox()->setValue(options_.beam);
    try_it->askText(options_.ask);
  }
  if (!try_it->isBusy() && answer_.isEmpty()) {  // refused at once, without an answer
    ask_failed_ = true;
    say(tr("try it: %1 → no answer").arg(options_.ask));
    finishNow();
  }
}

void ScriptedRun::inspect() {
  PretrainedInspectionWindow* inspection = window_->inspectionWindow();
  connect(inspection, &PretrainedInspectionWindow::inspected, this,
          [this](const QString& text, bool ok) {
            if (!ok) return fail(1, tr("cannot inspect %1: %2").arg(options_.inspect_model, text));
            say(tr("inspected %1: %2").arg(options_.inspect_model, text));
            finishNow();
          });
  inspection->open();
  inspection->setModelFolder(options_.inspect_model);
  if (!options_.inspect_image.isEmpty()) {
    inspection->inspectImage(options_.inspect_image);
  } else {
    inspection->inspectText(options_.inspect_text, options_.inspect_pair);
  }
}

void ScriptedRun::showComputation() {
  AttentionHeadGridPanel* panel = window_->attention()->panel();
  panel->setCurrentLayer(options_.video_layer);
  panel->setCurrentHead(options_.video_head);
  if (!window_->raiseDock(tr("Computation"))) return fail(2, tr("--computation: no such dock"));
  QCoreApplication::processEvents();  // the raised tab laid out on screen
  ComputationPresenter* computation = window_->computation();
  computation->refresh();
  auto* poll = new QTimer(this);
  poll->setInterval(50);
  connect(poll, &QTimer::timeout, this, [this, computation, poll] {
    if (computation->isBusy()) return;
    poll->deleteLater();
    if (options_.cell_query >= 0) computation->openCell(options_.cell_query, options_.cell_key);
    if (options_.stage >= 0) computation->view()->setCurrentStage(options_.stage);
    const QString status = computation->view()->status();
    say(computation->computation() == nullptr
            ? tr("computation: none (%1)").arg(status)
            : tr("computation: %1 · cell %2,%3%4")
                  .arg(computation->view()->headingLabel()->versions().value(0))
                  .arg(computation->cellQuery())
                  .arg(computation->cellKey())
                  .arg(status.isEmpty() ? QString() : QStringLiteral(" · ") + status));
    finishNow();
  });
  poll->start();
}

void ScriptedRun::addMoment() {
  AttentionHeadGridPanel* panel = window_->attention()->panel();
  panel->setCurrentLayer(options_.video_layer);
  panel->setCurrentHead(options_.video_head);
  if (options_.hide_query >= -1) panel->predictionRound()->start(options_.hide_query);
  LessonMoment moment = window_->lessonPlayer()->momentFromWindow();
  moment.question = options_.add_moment.toStdString();
  moment.view = options_.moment_view.toStdString();
  LessonActions* actions = window_->lessonActions();
  LessonPlayer* player = window_->lessonPlayer();
  connect(actions, &LessonActions::message, this, [this](const QString& text) { say(text); });
  connect(actions, &LessonActions::lessonSaved, this, [this](bool ok) {
    if (!ok) return fail(1, tr("--lesson-out %1 was not written").arg(options_.lesson_out));
    finishNow();
  });
  const auto append_and_save = [this, actions, player, moment] {
    player->appendMoment(moment);
    say(tr("moment %1 added: %2")
            .arg(player->lesson().moments.size())
            .arg(QString::fromStdString(moment.question)));
    actions->saveLesson(options_.lesson_out);
  };
  if (!QFileInfo::exists(options_.lesson_out)) {
    Lesson lesson;
    lesson.title = QFileInfo(options_.lesson_out).completeBaseName().toStdString();
    player->setLesson(options_.lesson_out, lesson);
    return append_and_save();
  }
  connect(actions, &LessonActions::lessonOpened, this, [this, append_and_save](bool ok) {
    if (!ok) return fail(1, tr("--lesson-out %1 did not open").arg(options_.lesson_out));
    append_and_save();
  });
  actions->openLesson(options_.lesson_out);
}

void ScriptedRun::finishNow() {
  // Queued replots, layouts and timeline loads need a few event-loop turns.
  QTimer::singleShot(500, this, [this] {
    if (done_) return;
    window_->attention()->waitForLoad();
    QCoreApplication::processEvents();
    if (!options_.add_moment.isEmpty() && !moment_added_) {
      moment_added_ = true;
      return addMoment();
    }
    if (options_.computation && !computation_shown_) {
      computation_shown_ = true;
      return showComputation();
    }
    const int code = writeOutputs();
    done_ = true;
    timeout_.stop();
    Q_EMIT finished(code != 0 ? code : ask_failed_ ? 1 : 0);
  });
}

int ScriptedRun::writeOutputs() {
  int code = 0;
  // The comparison first: the layout measured below says whether its window fits the screen.
  QWidget* shot_of = compareRuns(code);
  QJsonObject report;
  report.insert(QStringLiteral("panels"), window_->dockReport());
  report.insert(QStringLiteral("run_dir"), window_->currentRun()->folder());
  report.insert(QStringLiteral("window_title"), window_->widget()->windowTitle());
  reportLayout(report);
  if (!options_.ask.isEmpty()) report.insert(QStringLiteral("answer"), answer_);
  if (options_.train_steps > 0) reportTraining(report);
  code = std::max(code, exportFigures());
  if (!options_.inspect_model.isEmpty() && !options_.computation) {
    shot_of = window_->inspectionWindow();
    shot_of->resize(options_.size);
  }
  if (!options_.screenshot.isEmpty()) code = std::max(code, writeScreenshot(shot_of));
  return std::max(code, writeReport(report));
}

QWidget* ScriptedRun::compareRuns(int& code) {
  QWidget* shot_of = window_->widget();
  if (!options_.compare_dir.isEmpty()) {
    RunComparisonWindow* compare =
        window_->replay()->compareAndWait(options_.compare_dir, options_.size);
    if (compare && compare->data().error.isEmpty()) {
      say(tr("compared with %1: %2 differing settings, %3 common snapshot steps")
              .arg(options_.compare_dir)
              .arg(compare->data().settings.size())
              .arg(compare->data().paired.size()));
      shot_of = compare;
    } else {
      say(tr("cannot compare with %1: %2")
              .arg(options_.compare_dir, compare ? compare->data().error : QString()));
      code = 1;
    }
  }
  return shot_of;
}

void ScriptedRun::reportLayout(QJsonObject& report) {
  const QJsonObject layout = window_->measureLayout();
  report.insert(QStringLiteral("layout"), layout);
  const QJsonValue smallest = layout[QStringLiteral("smallest_curve_plot_height")];
  say(tr("layout: window %1x%2, run controls %3, smallest curve plot %4, %5 texts not fitting "
         "(%6 clipped)")
          .arg(window_->widget()->width())
          .arg(window_->widget()->height())
          .arg(layout[QStringLiteral("run_controls")][QStringLiteral("all")].toBool()
                   ? tr("all visible")
                   : tr("NOT all visible"))
          .arg(smallest.isNull() ? tr("not shown") : tr("%1 px").arg(smallest.toInt()))
          .arg(layout[QStringLiteral("texts_not_fitting")].toArray().size())
          .arg(layout[QStringLiteral("clipped_count")].toInt()));
}

void ScriptedRun::reportTraining(QJsonObject& report) {
  const EngineBridge::Stats& s = window_->bridge()->stats();
  const double batch = static_cast<double>(window_->currentRun()->config().batch_size);
  const double mean_rate = s.steps > 0 ? s.samples_per_s_sum / s.steps : 0;
  const StepMetrics& last = s.last_step;
  const double overall = last.elapsed_s > 0 ? last.step * batch / last.elapsed_s : 0;
  const double drain_hz = training_wall_s_ > 0 ? s.drains / training_wall_s_ : 0;
  say(tr("%1 steps of batch %2 in %3 s of training (%4 s wall, preparation included)")
          .arg(last.step)
          .arg(batch)
          .arg(last.elapsed_s, 0, 'f', 1)
          .arg(training_wall_s_, 0, 'f', 1));
  say(tr("throughput: %1 samples/s (mean per-step rate, as in metrics.csv), %2 samples/s "
         "overall (steps × batch / training time, probes and evaluation included)")
          .arg(mean_rate, 0, 'f', 1)
          .arg(overall, 0, 'f', 1));
  say(tr("event loop: longest stall %1 ms (the longest turn of the event loop, wall clock, "
         "%2 ms of it GUI-thread CPU; %3 turns); GUI thread busy %4 % of one core during "
         "training")
          .arg(stalls_->longestStallMs(), 0, 'f', 1)
          .arg(stalls_->longestBusyMs(), 0, 'f', 1)
          .arg(stalls_->turns())
          .arg(100.0 * stalls_->busyShare(), 0, 'f', 1));
  say(tr("drains: %1 (%2 Hz), longest %3 ms wall, %4 with data, %5 attention snapshots shown")
          .arg(s.drains)
          .arg(drain_hz, 0, 'f', 1)
          .arg(s.max_drain_ms, 0, 'f', 1)
          .arg(s.deliveries)
          .arg(s.attention_deliveries));
  report.insert(QStringLiteral("steps"), static_cast<double>(last.step));
  report.insert(QStringLiteral("batch_size"), batch);
  report.insert(QStringLiteral("samples_per_s_mean"), mean_rate);
  report.insert(QStringLiteral("samples_per_s_overall"), overall);
  report.insert(QStringLiteral("training_s"), last.elapsed_s);
  report.insert(QStringLiteral("longest_stall_ms"), stalls_->longestStallMs());
  report.insert(QStringLiteral("longest_stall_cpu_ms"), stalls_->longestBusyMs());
  report.insert(QStringLiteral("gui_busy_share"), stalls_->busyShare());
  report.insert(QStringLiteral("drains"), s.drains);
  report.insert(QStringLiteral("drain_hz"), drain_hz);
  report.insert(QStringLiteral("longest_drain_ms"), s.max_drain_ms);
  report.insert(QStringLiteral("deliveries"), s.deliveries);
  report.insert(QStringLiteral("state"), static_cast<int>(window_->currentRun()->state()));
  reportTimeEstimates(report);
}

void ScriptedRun::reportTimeEstimates(QJsonObject& report) {
  // The honest-estimate check: the run's whole time as first projected from its own first
  // steps, against the time it took (session time, preparation excluded).
  if (first_projection_s_ <= 0) return;
  // The session's whole time: from its start to the run's end (final test included).
  const double taken = training_wall_s_ - first_projection_at_s_;
  report.insert(QStringLiteral("projected_total_s"), first_projection_s_);
  report.insert(QStringLiteral("session_s"), taken);
  say(tr("time projected from the first steps: %1 s; taken: %2 s (%3 %)")
          .arg(first_projection_s_, 0, 'f', 1)
          .arg(taken, 0, 'f', 1)
          .arg(100.0 * (first_projection_s_ - taken) / std::max(1e-9, taken), 0, 'f', 0));
  if (const std::optional<EtaTrack::Verdict> eta =
          eta_.verdict(first_projection_at_s_, training_wall_s_)) {
    report.insert(QStringLiteral("eta_worst_error"), eta->worst_error);
    report.insert(QStringLiteral("eta_worst_error_later"), eta->worst_error_later);
    report.insert(QStringLiteral("eta_in_range_share"), eta->in_range_share);
    say(tr("ETA over the run: its worst error %1 % of the run's time (at %2 s), %3 % once a "
           "tenth of the run had passed; the real end inside the stated range in %4 % of %5 "
           "estimates")
            .arg(100.0 * eta->worst_error, 0, 'f', 0)
            .arg(eta->worst_at_s, 0, 'f', 0)
            .arg(100.0 * eta->worst_error_later, 0, 'f', 0)
            .arg(100.0 * eta->in_range_share, 0, 'f', 0)
            .arg(eta->estimates));
  }
}

int ScriptedRun::exportFigures() {
  int code = 0;
  if (!options_.export_dir.isEmpty()) {
    const QStringList left_out = window_->exporter()->leftOut();
    const ExportResult result = window_->exporter()->exportAll(options_.export_dir);
    if (result.ok() && left_out.isEmpty()) {
      say(tr("exported every panel to %1").arg(options_.export_dir));
    } else if (result.ok()) {
      say(tr("exported the panels to %1; left out: %2")
              .arg(options_.export_dir, left_out.join(QStringLiteral("; "))));
    } else {
      say(tr("export failed: %1").arg(result.error));
      code = 1;
    }
  }
  if (!options_.export_video.isEmpty()) {
    code = std::max(code, window_->videoExporter()->exportScripted(
                              {options_.export_video, options_.video_view, options_.video_layer,
                               options_.video_head, options_.video_fps}));
  }
  return code;
}

int ScriptedRun::writeScreenshot(QWidget* shot_of) {
  // Encoded in memory, then written beside the target and renamed over it: the target itself is
  // never opened, so nothing can block here.
  const QImage shot = shot_of->grab().toImage();
  QByteArray png;
  QBuffer buffer(&png);
  const bool encoded = buffer.open(QIODevice::WriteOnly) && shot.save(&buffer, "PNG");
  const Status written = encoded
                             ? writeOutputFile(QFile::encodeName(options_.screenshot).toStdString(),
                                               png.toStdString(), outputInputs())
                             : Status(Error{"the PNG could not be encoded"});
  if (!written.ok()) {
    say(tr("cannot write the screenshot %1: %2")
            .arg(options_.screenshot, QString::fromStdString(written.error())));
    return 1;
  }
  say(tr("screenshot %1 (%2x%3)").arg(options_.screenshot).arg(shot.width()).arg(shot.height()));
  return 0;
}

int ScriptedRun::writeReport(const QJsonObject& report) {
  int code = 0;
  const QJsonObject panels = report.value(QStringLiteral("panels")).toObject();
  QStringList parts;
  for (auto it = panels.begin(); it != panels.end(); ++it) {
    parts << QStringLiteral("%1=%2").arg(it.key(), it.value().toVariant().toString());
  }
  say(tr("panels: %1").arg(parts.join(QLatin1Char(' '))));
  if (!options_.report.isEmpty()) {
    const Status written =
        writeOutputFile(QFile::encodeName(options_.report).toStdString(),
                        QJsonDocument(report).toJson().toStdString(), outputInputs());
    if (!written.ok()) {
      say(tr("cannot write the report %1: %2")
              .arg(options_.report, QString::fromStdString(written.error())));
      code = 1;
    }
  }
  return code;
}

std::vector<CommandInput> ScriptedRun::outputInputs() const {
  std::vector<CommandInput> inputs;
  for (const QString& run : {options_.open_dir, options_.compare_dir}) {
    if (run.isEmpty()) continue;
    const std::vector<CommandInput> files = runFolderInputs(QFile::encodeName(run).toStdString());
    inputs.insert(inputs.end(), files.begin(), files.end());
  }
  if (!options_.task.isEmpty() && options_.data != QLatin1String("builtin")) {
    inputs.push_back({QFile::encodeName(options_.data).toStdString(), "the data set"});
  }
  for (const QString& model : {options_.model, options_.inspect_model}) {
    if (!model.isEmpty()) inputs.push_back({QFile::encodeName(model).toStdString(), "the model"});
  }
  if (!options_.lesson.isEmpty()) {
    inputs.push_back({QFile::encodeName(options_.lesson).toStdString(), "the lesson"});
  }
  return inputs;
}

void ScriptedRun::exitAfterGrace(int exit_code, int grace_s) {
  // Detached: if the joins finish first, main returns and the process ends with this thread.
  std::thread([exit_code, grace_s] {
    std::this_thread::sleep_for(std::chrono::seconds(grace_s));
    std::fprintf(stderr,
                 "attentionscope: the trainer or a background job did not stop within %d s; "
                 "exiting with code %d anyway\n",
                 grace_s, exit_code);
    std::fflush(nullptr);
    // _Exit: exit() would run the static destructors while those threads still use them.
    std::_Exit(exit_code);
  }).detach();
}

void ScriptedRun::fail(int code, const QString& message) {
  if (done_) return;
  done_ = true;
  timeout_.stop();
  std::fprintf(stderr, "attentionscope: %s\n", qPrintable(message));
  std::fflush(stderr);
  Q_EMIT finished(code);
}

}  // namespace ascope
