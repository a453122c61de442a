#pragma once
// The Errors dock's presenter: "Evaluate on…" scores the shown run on a data set in the background
// (EvaluationJob) with progress and Cancel, the report fills the dock, and a sample clicked there
// is asked again on a pool thread and put under the scope — its attention in the Attention dock
// (rollout and decoding follow it), its prediction in the Sample dock — as "Try it" does.
#include <QFutureWatcher>
#include <QObject>

#include <memory>
#include <optional>

#include "app/gui/views/news/run_news_reader.h"
#include "engine/evaluation/run_evaluation.h"
#include "engine/vocabulary/events.h"
#include "widgets/attention/attention_plot_data.h"

class QAction;
class QWidget;

namespace ascope {

class AttentionPresenter;
class CurrentRun;
class ErrorAnalysisPanel;
class EvaluationJob;
class SamplePresenter;

class ErrorsPresenter : public QObject, public RunNewsReader {
  Q_OBJECT

 public:
  /// Creates the dock's panel (a child of `window`); a picked sample goes under the scope in
  /// `attention` and `sample`.
  ErrorsPresenter(AttentionPresenter* attention, SamplePresenter* sample, const CurrentRun* run,
                  QWidget* window);
  ~ErrorsPresenter() override;

  ErrorAnalysisPanel* panel() const { return panel_; }
  // RunNewsReader: the report belongs to the run it scored; a new run shown drops it. The news of
  // a run says nothing to this dock: it shows what "Evaluate on…" measured.
  void clearRun() override;
  void takeNews(const RunNews& news) override;
  /// "error_samples" (scored), "error_worst" (listed): what the dock holds; a classifier's
  /// "error_ece", "error_ece_before", "error_temperature", "error_reliability_shown".
  QJsonObject report() const override;
  QList<Exportable*> exportables() const override;

  /// Run → Evaluate on…: enabled while the shown run has a folder.
  QAction* evaluateAction() const { return action_; }
  /// Asks for the data set and split, then evaluates (when interactive).
  void openDialog();
  /// Scores the shown run (request.run_dir is set here; an empty request.data is the run's own
  /// data); false while an evaluation runs or when no run is shown.
  bool evaluate(EvaluationRequest request);
  void cancel();
  bool isRunning() const;
  const EvaluationReport* evaluationReport() const { return report_.get(); }
  /// Puts sample `index` of the report (an index into report()->scored) under the scope; a newer
  /// pick while one is asked replaces any waiting one.
  void showSample(int index);

 Q_SIGNALS:
  void message(const QString& text);
  /// An evaluation ended: with a report (`ok`) or not (cancelled, failed).
  void evaluated(bool ok);
  /// The picked sample is under the scope.
  void sampleShown(int index);

 private:
  struct Asked {
    std::optional<AttentionPlotData> attention;
    QString error;
  };
  void onFinished(bool ok, std::shared_ptr<const EvaluationReport> report, const QString& error);
  void onAsked();
  void refresh();

  AttentionPresenter* attention_;
  SamplePresenter* sample_;
  const CurrentRun* run_;
  QWidget* window_;
  ErrorAnalysisPanel* panel_;
  EvaluationJob* job_;
  QAction* action_;
  std::shared_ptr<const EvaluationReport> report_;
  QFutureWatcher<Asked> watcher_;
  int asking_ = -1;   ///< the sample being asked
  int waiting_ = -1;  ///< the newest pick while one was asked
};

}  // namespace ascope
