#include "app/gui/window/scripted/scripted_evaluation.h"

#include "app/gui/views/errors/errors_presenter.h"
#include "engine/vocabulary/data_split.h"

namespace ascope {

ScriptedEvaluation::ScriptedEvaluation(ErrorsPresenter* errors, QObject* parent)
    : QObject(parent), errors_(errors) {}

bool ScriptedEvaluation::start(const QString& data, const QString& split, QString* error) {
  EvaluationRequest request;
  request.data = data.toStdString();
  request.whole_data = split == QLatin1String("all");
  if (!request.whole_data) request.split = parseSplit(split.toStdString());
  // Emitted on the GUI thread by the presenter once its worker's report arrived.
  connect(
      errors_, &ErrorsPresenter::evaluated, this,
      [this](bool ok) {
        const EvaluationReport* r = errors_->evaluationReport();
        if (!ok || r == nullptr) {
          Q_EMIT finished(false, tr("the evaluation did not finish"));
          return;
        }
        QString text = tr("%1 samples of the %2 split, accuracy %3")
                           .arg(r->samples)
                           .arg(QString::fromStdString(r->split))
                           .arg(r->accuracy, 0, 'f', 4);
        if (r->calibration) {
          text += tr(", ECE %1 at temperature %2 (%3 at 1)")
                      .arg(r->calibration->after.ece, 0, 'f', 4)
                      .arg(r->calibration->temperature, 0, 'g', 4)
                      .arg(r->calibration->before.ece, 0, 'f', 4);
        }
        Q_EMIT finished(true, text);
      },
      Qt::SingleShotConnection);
  if (!errors_->evaluate(request)) {
    *error = tr("no run is shown, or an evaluation is running");
    return false;
  }
  return true;
}

}  // namespace ascope
