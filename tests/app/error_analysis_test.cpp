// Error analysis in the window: Run → Evaluate on… scores a real trained run in the background
// (with Cancel), the Errors dock shows its confusion matrix, a cell lists its samples, and a
// sample clicked goes under the scope in the Attention, Sample and (translation) Decoding docks.
// The same trained runs, opened, show a weight clicked in the Attention dock taken apart in the
// Computation dock, recomputed on its worker with the run's own weights.
#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

#include <cmath>

#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/computation/computation_presenter.h"
#include "app/gui/views/decoding/decoding_presenter.h"
#include "app/gui/views/errors/errors_presenter.h"
#include "app/gui/views/sample/sample_presenter.h"
#include "app/gui/window/export/export_actions.h"
#include "app/gui/window/main/main_window.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "engine/tasks/translation/translation_descriptor.h"
#include "engine/train/trainer.h"
#include "open_run_in_window.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/attention/attention_heatmap_view.h"
#include "widgets/attention/prediction_round.h"
#include "widgets/common/fitting_label.h"
#include "widgets/computation/computation_view.h"
#include "widgets/computation/stage_figure.h"
#include "widgets/computation/stage_heatmap_view.h"
#include "widgets/decoding/decoding_step_view.h"
#include "widgets/samples/sample_panel.h"
#include "widgets/tables/confusion_matrix_view.h"
#include "widgets/tables/error_analysis_panel.h"
#include "widgets/tables/reliability_diagram_view.h"

namespace ascope {
namespace {

/// Scoring the run's own built-in data, with no errors' attention asked for.
EvaluationRequest builtinData() {
  EvaluationRequest request;
  request.data = "builtin";
  request.errors = 0;
  return request;
}

/// A click on the first sample the Errors dock lists.
void clickFirstListed(ErrorAnalysisPanel& panel) {
  QTableWidget* list = panel.sampleList();
  QTest::mouseClick(list->viewport(), Qt::LeftButton, {},
                    list->visualItemRect(list->item(0, 0)).center());
}

/// A left click on cell (row, col) of a heatmap on screen.
void clickCell(HeatmapView* view, int row, int col) {
  view->replot();
  const QPoint at(qRound(view->xAxis->coordToPixel(col)), qRound(view->yAxis->coordToPixel(row)));
  QTest::mouseClick(view, Qt::LeftButton, {}, at);
}

/// Waits until the Computation dock has the answer to what the window shows.
bool computationSettles(ComputationPresenter* computation) {
  return QTest::qWaitFor(
      [computation] { return !computation->isBusy() && computation->computation() != nullptr; },
      60000);
}

}  // namespace

class ErrorAnalysisTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void runMenuOffersIt();
  void evaluateThenACellThenASampleUnderTheScope();
  void aTranslationErrorGoesUnderTheDecodingScopeToo();
  void cancelStopsAnEvaluation();
  void badDataIsSaidInTheDock();
  void aClickedWeightIsTakenApartWithTheRunsOwnNumbers();
  void aStepWithoutStoredWeightsIsSaidPlainly();
  void aPredictionRoundKeepsItsClicks();

 private:
  QTemporaryDir dir_;
  QString run_;
  QString translation_run_;
};

void ErrorAnalysisTest::initTestCase() {
  QVERIFY(dir_.isValid());
  run_ = dir_.filePath(QStringLiteral("run"));
  TrainingConfig c = *makePreset(kSentimentTaskId, "tiny");
  c.out_dir = run_.toStdString();
  c.probe_every_seconds = 1e9;
  Trainer trainer(c);
  QVERIFY(trainer.start().ok());
  trainer.wait();
  QCOMPARE(trainer.state(), TrainerState::kFinished);

  translation_run_ = dir_.filePath(QStringLiteral("translation"));
  TrainingConfig t = *makePreset(kTranslationTaskId, "tiny");
  t.out_dir = translation_run_.toStdString();
  Trainer translator(t);
  QVERIFY(translator.start().ok());
  translator.wait();
  QCOMPARE(translator.state(), TrainerState::kFinished);
}

void ErrorAnalysisTest::runMenuOffersIt() {
  MainWindow window;
  QAction* evaluate = window.errorAnalysis()->evaluateAction();
  QVERIFY(!evaluate->isEnabled());  // no run shown yet
  QMenu* run_menu = nullptr;
  for (QAction* menu : window.menuBar()->actions()) {
    if (menu->text().remove(QLatin1Char('&')) == QStringLiteral("Run")) run_menu = menu->menu();
  }
  QVERIFY(run_menu && run_menu->actions().contains(evaluate));
  test::showAndOpenRun(window, run_);
  QVERIFY(evaluate->isEnabled());
}

void ErrorAnalysisTest::evaluateThenACellThenASampleUnderTheScope() {
  MainWindow window;
  test::showAndOpenRun(window, run_);
  ErrorsPresenter* errors = window.errorAnalysis();
  ErrorAnalysisPanel* panel = window.errorAnalysis()->panel();
  QSignalSpy evaluated(errors, &ErrorsPresenter::evaluated);
  // No data named (scripted --evaluate without --data): the run's own, here the generator's.
  EvaluationRequest request = builtinData();
  request.data.clear();
  QVERIFY(errors->evaluate(request));
  QVERIFY(errors->isRunning());
  QCOMPARE(panel->evaluateButton()->text(), QStringLiteral("Cancel"));
  QVERIFY(!errors->evaluate(request));  // one at a time
  QTRY_COMPARE_WITH_TIMEOUT(evaluated.size(), 1, 60000);
  QVERIFY2(evaluated.at(0).at(0).toBool(), qPrintable(panel->messageLabel()->text()));
  QCOMPARE(panel->evaluateButton()->text(), QStringLiteral("Evaluate on…"));

  const EvaluationReport* report = errors->evaluationReport();
  QVERIFY(report != nullptr);
  QCOMPARE(report->samples, 50);  // the tiny preset's test half of the generator's held-out
  ConfusionMatrixView* matrix = panel->matrix();
  QCOMPARE(matrix->rowCount(), 2);
  qint64 total = 0;
  int cell_t = 0, cell_p = 0;
  for (int t = 0; t < 2; ++t) {
    for (int p = 0; p < 2; ++p) {
      QCOMPARE(matrix->count(t, p), report->confusion[t][p]);
      total += matrix->count(t, p);
      // The fullest wrong cell, else the fullest right one.
      if (matrix->count(t, p) > matrix->count(cell_t, cell_p) || (t != p && cell_t == cell_p)) {
        if (matrix->count(t, p) > 0) cell_t = t, cell_p = p;
      }
    }
  }
  QCOMPARE(total, report->samples);
  // Issue 56: the run fitted its temperature when it finished; the reliability diagram beside the
  // matrix shows the split at it, the summary says the calibration error.
  QVERIFY(report->calibration.has_value());
  QVERIFY(QFileInfo::exists(QDir(run_).filePath(QStringLiteral("calibration.json"))));
  ReliabilityDiagramView* diagram = panel->reliability();
  QVERIFY(diagram->isVisible());
  QCOMPARE(diagram->diagram().after.size(), 10);
  QCOMPARE(diagram->diagram().temperature, report->calibration->temperature);
  QVERIFY(panel->summaryLabel()->text().contains(QStringLiteral("ECE")));
  QCOMPARE(window.dockReport().value(QStringLiteral("error_ece")).toDouble(),
           report->calibration->after.ece);
  QTest::mouseClick(matrix->viewport(), Qt::LeftButton, {},
                    matrix->visualItemRect(matrix->item(cell_t, cell_p)).center());
  QCOMPARE(static_cast<qint64>(panel->listed().size()), matrix->count(cell_t, cell_p));
  for (int i : panel->listed()) {
    QCOMPARE(report->scored[static_cast<std::size_t>(i)].true_class, cell_t);
    QCOMPARE(report->scored[static_cast<std::size_t>(i)].predicted_class, cell_p);
  }

  // The first listed sample under the scope: its own attention, its prediction.
  QSignalSpy shown(errors, &ErrorsPresenter::sampleShown);
  clickFirstListed(*panel);
  QTRY_COMPARE_WITH_TIMEOUT(shown.size(), 1, 30000);
  const int picked = shown.at(0).at(0).toInt();
  QCOMPARE(picked, panel->listed().front());
  AttentionPresenter* attention = window.attention();
  QVERIFY(attention->isShowingAsked());
  const SamplePrediction& sample = report->scored[static_cast<std::size_t>(picked)].prediction;
  QVERIFY(window.sample()->panel()->textView()->toPlainText().contains(
      QString::fromStdString(sample.input).left(20)));
  if (!qEnvironmentVariableIsEmpty("ASCOPE_SCREENSHOT_DIR")) {
    window.grab().save(QDir(qEnvironmentVariable("ASCOPE_SCREENSHOT_DIR"))
                           .filePath(QStringLiteral("errors_dock.png")));
  }

  // The dock's owner is on the window's one list of owners: its counts are in the report, its
  // figure in "Export all panels"; a run opened again drops the report of the run before.
  QCOMPARE(window.dockReport().value(QStringLiteral("error_samples")).toInteger(), 50);
  QTemporaryDir exported;
  QVERIFY(window.exporter()->exportAll(exported.path()).ok());
  QVERIFY(QFileInfo::exists(QDir(exported.path()).filePath(QStringLiteral("errors.csv"))));
  test::showAndOpenRun(window, run_);
  QVERIFY(errors->evaluationReport() == nullptr);
  QVERIFY(!window.dockReport().contains(QStringLiteral("error_samples")));
}

// A translation error clicked in the Errors dock is what the Decoding dock steps
// through, greedily decoded as the model translated it (each step fed the previous prediction).
void ErrorAnalysisTest::aTranslationErrorGoesUnderTheDecodingScopeToo() {
  MainWindow window;
  test::showAndOpenRun(window, translation_run_);
  ErrorsPresenter* errors = window.errorAnalysis();
  ErrorAnalysisPanel* panel = window.errorAnalysis()->panel();
  QSignalSpy evaluated(errors, &ErrorsPresenter::evaluated);
  const EvaluationRequest request = builtinData();
  QVERIFY(errors->evaluate(request));
  QTRY_COMPARE_WITH_TIMEOUT(evaluated.size(), 1, 120000);
  QVERIFY2(evaluated.at(0).at(0).toBool(), qPrintable(panel->messageLabel()->text()));
  QVERIFY2(!panel->listed().empty(), "a tiny translator translates some sentence wrong");

  DecodingStepView* decoding = window.decoding()->view();
  QSignalSpy shown(errors, &ErrorsPresenter::sampleShown);
  clickFirstListed(*panel);
  QTRY_COMPARE_WITH_TIMEOUT(shown.size(), 1, 60000);
  QVERIFY(window.attention()->isShowingAsked());
  QVERIFY(decoding->hasDecoding());
  QCOMPARE(decoding->fedToken(0), QStringLiteral("[SOS]"));
  // Greedy decoding of the clicked sentence, not the timeline's teacher-forced probe.
  for (int step = 0; step + 1 < decoding->stepCount(); ++step) {
    QCOMPARE(decoding->fedToken(step + 1), decoding->predictedToken(step));
  }
}

void ErrorAnalysisTest::cancelStopsAnEvaluation() {
  MainWindow window;
  test::showAndOpenRun(window, run_);
  ErrorsPresenter* errors = window.errorAnalysis();
  QSignalSpy evaluated(errors, &ErrorsPresenter::evaluated);
  EvaluationRequest request;
  request.data = "builtin";
  request.split = DataSplit::kTrain;
  QVERIFY(errors->evaluate(request));
  window.errorAnalysis()->panel()->evaluateButton()->click();  // "Cancel" while it runs
  QTRY_COMPARE_WITH_TIMEOUT(evaluated.size(), 1, 60000);
  // Cancelled before it ended, or it ended first: never a hang, never a half report.
  if (!evaluated.at(0).at(0).toBool()) {
    QCOMPARE(window.errorAnalysis()->panel()->messageLabel()->text(),
             QStringLiteral("Evaluation cancelled."));
    QVERIFY(errors->evaluationReport() == nullptr);
  }
  QVERIFY(!errors->isRunning());
}

void ErrorAnalysisTest::badDataIsSaidInTheDock() {
  MainWindow window;
  test::showAndOpenRun(window, run_);
  ErrorsPresenter* errors = window.errorAnalysis();
  QSignalSpy evaluated(errors, &ErrorsPresenter::evaluated);
  EvaluationRequest request;
  request.data = dir_.filePath(QStringLiteral("missing.csv")).toStdString();
  QVERIFY(errors->evaluate(request));
  QTRY_COMPARE_WITH_TIMEOUT(evaluated.size(), 1, 30000);
  QVERIFY(!evaluated.at(0).at(0).toBool());
  const QString text = window.errorAnalysis()->panel()->messageLabel()->text();
  QVERIFY2(text.contains(QStringLiteral("missing.csv: does not exist")), qPrintable(text));
}

void ErrorAnalysisTest::aClickedWeightIsTakenApartWithTheRunsOwnNumbers() {
  MainWindow window;
  test::showAndOpenRun(window, run_);
  ComputationPresenter* computation = window.computation();
  AttentionHeadGridPanel* panel = window.attention()->panel();
  panel->setCurrentHead(1);
  AttentionHeatmapView* head = panel->headView();
  QTRY_VERIFY(head->isVisible());
  QVERIFY(!computation->isOnScreen());  // behind the Attention dock's tab
  const LabeledMatrix shown = head->weights();
  QVERIFY(shown.rows >= 3 && shown.cols >= 3);
  clickCell(head, 2, 1);
  QTRY_VERIFY(computation->isOnScreen());
  QVERIFY(computationSettles(computation));
  QCOMPARE(computation->cellQuery(), 2);
  QCOMPARE(computation->cellKey(), 1);

  // The worker's numbers are the head shown: the run's newest snapshot is the step of last.pt.
  const AttentionComputation& c = *computation->computation();
  QCOMPARE(c.layer, panel->currentLayer());
  QCOMPARE(c.head, 1);
  QCOMPARE(c.weights.rows, shown.rows);
  QCOMPARE(c.weights.cols, shown.cols);
  for (int q = 0; q < shown.rows; ++q) {
    for (int k = 0; k < shown.cols; ++k) {
      // Stored snapshots keep float16 weights.
      QVERIFY2(std::abs(c.weights.at(q, k) - shown.at(q, k)) < 2e-3,
               qPrintable(QStringLiteral("%1,%2: %3 vs %4")
                              .arg(q)
                              .arg(k)
                              .arg(c.weights.at(q, k))
                              .arg(shown.at(q, k))));
    }
  }
  QCOMPARE(c.step, window.attention()->shownStep());
  QVERIFY(computation->view()->computation()->step_warning.isEmpty());

  // The cell as the report has it: its products sum to its logit, its weight is the one shown.
  const QJsonObject cell = computation->report()[QStringLiteral("computation")]
                               .toObject()[QStringLiteral("cell")]
                               .toObject();
  QCOMPARE(cell[QStringLiteral("query")].toInt(), 2);
  QCOMPARE(cell[QStringLiteral("key")].toInt(), 1);
  const double logit = cell[QStringLiteral("logit")].toDouble();
  QVERIFY(std::abs(cell[QStringLiteral("sum")].toDouble() - logit) < 1e-4 * (1 + std::abs(logit)));
  QVERIFY(std::abs(cell[QStringLiteral("weight")].toDouble() - shown.at(2, 1)) < 2e-3);

  // Another weight clicked in the stage on screen is taken apart at once.
  computation->view()->setCurrentStage(5);
  QTest::qWait(50);  // the stage's figure laid out
  clickCell(computation->view()->stageFigure(5)->views().front(), 0, 2);
  QCOMPARE(computation->cellQuery(), 0);
  QCOMPARE(computation->cellKey(), 2);
}

void ErrorAnalysisTest::aStepWithoutStoredWeightsIsSaidPlainly() {
  MainWindow window;
  test::showAndOpenRun(window, run_);
  window.attention()->showFirst();
  window.attention()->waitForLoad();
  const long long first = window.attention()->shownStep();
  ComputationPresenter* computation = window.computation();
  clickCell(window.attention()->panel()->headView(), 0, 0);
  QVERIFY(computationSettles(computation));
  const QString warning = computation->view()->computation()->step_warning;
  QVERIFY2(warning.contains(
               QStringLiteral("(last.pt); the shown step %1 has no stored weights").arg(first)),
           qPrintable(warning));
  QVERIFY(computation->view()->weightsLabel()->versions().first().contains(warning));
}

void ErrorAnalysisTest::aPredictionRoundKeepsItsClicks() {
  MainWindow window;
  test::showAndOpenRun(window, run_);
  ComputationPresenter* computation = window.computation();
  QSignalSpy wanted(computation, &ComputationPresenter::dockWanted);
  AttentionHeadGridPanel* panel = window.attention()->panel();
  panel->predictionRound()->start();
  QVERIFY(panel->predictionRound()->isActive());
  clickCell(panel->headView(), 1, 1);
  QCOMPARE(wanted.size(), 0);
  QCOMPARE(computation->cellQuery(), -1);
  QVERIFY(!computation->isOnScreen());
  panel->predictionRound()->end();
  clickCell(panel->headView(), 1, 1);
  QCOMPARE(wanted.size(), 1);
}

}  // namespace ascope

QTEST_MAIN(ascope::ErrorAnalysisTest)
#include "error_analysis_test.moc"
