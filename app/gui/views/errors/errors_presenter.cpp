#include "app/gui/views/errors/errors_presenter.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QtConcurrent/QtConcurrentRun>

#include "app/gui/bridge/current_run.h"
#include "app/gui/bridge/evaluation_job.h"
#include "app/gui/views/attention/attention_plot_conversion.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/errors/error_analysis_conversion.h"
#include "app/gui/views/errors/evaluate_dialog.h"
#include "app/gui/views/sample/sample_presenter.h"
#include "engine/inference/checkpoint_inference.h"
#include "engine/runfolder/run_reader.h"
#include "engine/vocabulary/payloads/sample_input.h"
#include "widgets/tables/error_analysis_panel.h"
#include "widgets/tables/reliability_diagram_view.h"

namespace ascope {

ErrorsPresenter::ErrorsPresenter(AttentionPresenter* attention, SamplePresenter* sample,
                                 const CurrentRun* run, QWidget* window)
    : QObject(window),
      attention_(attention),
      sample_(sample),
      run_(run),
      window_(window),
      panel_(new ErrorAnalysisPanel(window)),
      job_(new EvaluationJob(this)),
      action_(new QAction(tr("E&valuate on…"), this)) {
  panel_->setObjectName(QStringLiteral("errorsPanel"));
  action_->setToolTip(tr("Score the shown run on a data set and split, and analyse its errors"));
  connect(action_, &QAction::triggered, this, &ErrorsPresenter::openDialog);
  // The dock's button is Evaluate while idle, Cancel while an evaluation runs.
  connect(panel_, &ErrorAnalysisPanel::evaluateRequested, this, [this] {
    if (isRunning()) {
      cancel();
    } else {
      openDialog();
    }
  });
  connect(panel_, &ErrorAnalysisPanel::samplePicked, this, &ErrorsPresenter::showSample);
  // Both queued from the worker (WorkerJob::Post), delivered on the GUI thread.
  connect(job_, &EvaluationJob::progress, this, [this](qint64 done, qint64 total) {
    panel_->setMessage(tr("Evaluating: %1 of %2…").arg(done).arg(total));
  });
  connect(job_, &EvaluationJob::finished, this, &ErrorsPresenter::onFinished);
  connect(&watcher_, &QFutureWatcher<Asked>::finished, this, &ErrorsPresenter::onAsked);
  connect(run_, &CurrentRun::runChanged, this, &ErrorsPresenter::refresh);
  connect(run_, &CurrentRun::folderChanged, this, &ErrorsPresenter::refresh);
  refresh();
}

QList<Exportable*> ErrorsPresenter::exportables() const {
  if (panel_->data().isEmpty()) return {};  // no evaluation yet
  return {panel_};
}

void ErrorsPresenter::clearRun() {
  // Another run shown (or the same one started again, with weights the report did not score).
  report_.reset();
  panel_->clear();
  refresh();
}

void ErrorsPresenter::takeNews(const RunNews& /*news*/) {}

QJsonObject ErrorsPresenter::report() const {
  if (!report_) return {};
  QJsonObject out{{QStringLiteral("error_samples"), static_cast<qint64>(report_->scored.size())},
                  {QStringLiteral("error_worst"), static_cast<qint64>(report_->worst.size())}};
  if (report_->calibration) {
    // What the reliability diagram shows: the ECE at the run's temperature and at 1.
    out.insert(QStringLiteral("error_ece"), report_->calibration->after.ece);
    out.insert(QStringLiteral("error_ece_before"), report_->calibration->before.ece);
    out.insert(QStringLiteral("error_temperature"), report_->calibration->temperature);
    out.insert(QStringLiteral("error_reliability_shown"), !panel_->reliability()->isHidden());
  }
  return out;
}

ErrorsPresenter::~ErrorsPresenter() {
  watcher_.waitForFinished();  // a pool job of ours must not outlive the controller
}

bool ErrorsPresenter::isRunning() const {
  return job_->isRunning();
}

void ErrorsPresenter::refresh() {
  const bool has_run = !run_->folder().isEmpty();
  action_->setEnabled(has_run && !isRunning());
  panel_->evaluateButton()->setEnabled(has_run || isRunning());
  panel_->evaluateButton()->setText(isRunning() ? tr("Cancel") : tr("Evaluate on…"));
}

void ErrorsPresenter::openDialog() {
  if (run_->folder().isEmpty() || isRunning()) return;
  const TrainingConfig& config = run_->config();
  EvaluateDialog dialog(QString::fromStdString(config.data), window_);
  if (dialog.exec() != QDialog::Accepted) return;
  EvaluationRequest request = dialog.request();
  if (!evaluate(request)) {
    QMessageBox::warning(window_, tr("Cannot evaluate"),
                         tr("An evaluation is already running, or no run is shown."));
  }
}

bool ErrorsPresenter::evaluate(EvaluationRequest request) {
  if (run_->folder().isEmpty() || isRunning()) return false;
  request.run_dir = run_->folder().toStdString();
  if (request.data.empty()) request.data = run_->config().data;  // the run's own data
  request.device = "cpu";  // the GUI's inference runs on the CPU, beside any training
  if (!job_->start(request)) return false;
  panel_->setMessage(tr("Evaluating %1 (%2)…")
                         .arg(QString::fromStdString(request.data),
                              request.whole_data ? tr("all of it")
                              : request.split
                                  ? QString(splitName(*request.split))
                                  : tr("the test split of the run's data, else all of it")));
  refresh();
  return true;
}

void ErrorsPresenter::cancel() {
  job_->cancel();
}

void ErrorsPresenter::onFinished(bool ok, std::shared_ptr<const EvaluationReport> report,
                                 const QString& error) {
  refresh();
  if (!ok) {
    panel_->setMessage(error == QStringLiteral("cancelled") ? tr("Evaluation cancelled.")
                                                            : tr("Cannot evaluate: %1").arg(error));
    Q_EMIT message(panel_->messageLabel()->text());
    Q_EMIT evaluated(false);
    return;
  }
  report_ = std::move(report);
  panel_->setData(toErrorAnalysisData(*report_));
  QStringList notes;
  for (const std::string& w : report_->warnings) notes << QString::fromStdString(w);
  panel_->setMessage(notes.join(QStringLiteral("\n")));
  Q_EMIT message(
      tr("Evaluated %1 samples in %2 s").arg(report_->samples).arg(report_->seconds, 0, 'f', 1));
  Q_EMIT evaluated(true);
}

void ErrorsPresenter::showSample(int index) {
  if (!report_ || index < 0 || index >= static_cast<int>(report_->scored.size())) return;
  if (watcher_.isRunning()) {
    waiting_ = index;  // the newest pick wins
    return;
  }
  asking_ = index;
  const SamplePrediction& sample = report_->scored[static_cast<std::size_t>(index)].prediction;
  InferenceRequest request;
  request.run_dir = report_->run_dir;
  request.checkpoint = CheckpointChoice::kBest;  // the weights the report scored
  const SampleInput input = inputOf(sample.payloads, sample.input);
  if (input.image) {
    request.image_width = input.image->width;
    request.image_height = input.image->height;
    request.image_planar = input.image->pixels;
  } else {
    request.text = input.text;
  }
  // On the pool: the files are checked (a FIFO would block open()), the model loads and answers,
  // and the attention is converted there too (a large copy).
  watcher_.setFuture(QtConcurrent::run([request]() -> Asked {
    if (Status files = checkRunFilesReadable(request.run_dir); !files.ok()) {
      return {std::nullopt, QString::fromStdString(files.error())};
    }
    Expected<InferenceAnswer> answer = inferFromCheckpoint(request);
    if (!answer.ok()) return {std::nullopt, QString::fromStdString(answer.error())};
    AttentionPlotData data = toAttentionPlotData(answer->attention);
    data.step = answer->step;
    return {std::move(data), {}};
  }));
}

void ErrorsPresenter::onAsked() {
  const Asked asked = watcher_.result();
  const int index = asking_;
  if (report_ && index >= 0 && index < static_cast<int>(report_->scored.size())) {
    if (!asked.attention) {
      panel_->setMessage(tr("Cannot show sample #%1: %2").arg(index).arg(asked.error));
    } else {
      const ScoredSample& s = report_->scored[static_cast<std::size_t>(index)];
      const SamplePrediction& p = s.prediction;
      const QString caption =
          tr("<b>%1 sample #%2 under the scope</b>: true <b>%3</b>, answered <b>%4</b> (loss %5)")
              .arg(QString::fromStdString(report_->split))
              .arg(s.index)
              .arg(QString::fromStdString(p.expected).toHtmlEscaped(),
                   QString::fromStdString(p.answer).toHtmlEscaped())
              .arg(s.loss, 0, 'f', 3);
      attention_->showAsked(
          *asked.attention, caption,
          tr("%1 sample #%2").arg(QString::fromStdString(report_->split)).arg(s.index));
      SamplePrediction shown = p;
      shown.step = report_->step;
      sample_->showAsked(shown);
      Q_EMIT sampleShown(index);
    }
  }
  asking_ = -1;
  if (waiting_ >= 0) {
    const int next = waiting_;
    waiting_ = -1;
    showSample(next);
  }
}

}  // namespace ascope
