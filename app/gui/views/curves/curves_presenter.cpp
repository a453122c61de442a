#include "app/gui/views/curves/curves_presenter.h"

#include <QWidget>

#include "app/gui/views/curves/metric_series_conversion.h"
#include "widgets/curves/curve_bookmarks.h"
#include "widgets/curves/metric_curve_panel.h"

namespace ascope {

CurvesPresenter::CurvesPresenter(QWidget* panel_parent) : QObject(panel_parent) {
  loss_ = new MetricCurvePanel(tr("loss"), panel_parent);
  loss_->setObjectName(QStringLiteral("lossPanel"));
  loss_->setLogScale(true);
  accuracy_ = new MetricCurvePanel(tr("accuracy"), panel_parent);
  accuracy_->setObjectName(QStringLiteral("accuracyPanel"));
  loss_bookmarks_ = new CurveBookmarks(loss_->plot());
  accuracy_bookmarks_ = new CurveBookmarks(accuracy_->plot());
  for (MetricCurvePanel* curve : {loss_, accuracy_}) {
    connect(curve, &MetricCurvePanel::stepPicked, this,
            [this](double step) { Q_EMIT stepPicked(static_cast<long long>(step + 0.5)); });
  }
  for (CurveBookmarks* markers : {loss_bookmarks_, accuracy_bookmarks_}) {
    connect(markers, &CurveBookmarks::markerClicked, this,
            [this](double step) { Q_EMIT bookmarkPicked(static_cast<long long>(step)); });
  }
}

QList<Exportable*> CurvesPresenter::exportables() const {
  return {loss_, accuracy_};
}

QJsonObject CurvesPresenter::report() const {
  return {{QStringLiteral("loss_points"), loss_->trainSeries().size()},
          {QStringLiteral("loss_validation_points"), loss_->validationSeries().size()},
          {QStringLiteral("accuracy_points"), accuracy_->trainSeries().size()},
          {QStringLiteral("accuracy_validation_points"), accuracy_->validationSeries().size()},
          {QStringLiteral("loss_cursor_step"), loss_->cursorStep()},
          {QStringLiteral("accuracy_cursor_step"), accuracy_->cursorStep()}};
}

void CurvesPresenter::clear() {
  loss_->clear();
  accuracy_->clear();
  setCursor(-1);
  setReadoutStep(-1);
}

void CurvesPresenter::nameAccuracy(const TaskDescriptor* task) {
  accuracy_->setMetricName(task ? QString::fromStdString(task->accuracy_name) : tr("accuracy"));
  const MetricInfo headline = task ? task->headline() : MetricInfo{};
  const bool other = task != nullptr && headline.key != "accuracy";
  figure_key_ = other ? headline.key : std::string();
  accuracy_->setFigureName(other ? QString::fromStdString(headline.title) : QString());
}

void CurvesPresenter::showSteps(const std::vector<StepMetrics>& steps) {
  loss_->appendTrainPoints(lossPoints(steps));
  accuracy_->appendTrainPoints(accuracyPoints(steps));
}

void CurvesPresenter::showEpoch(const EpochSummary& e) {
  loss_->appendValidationPoint(static_cast<double>(e.step), e.val_loss);
  accuracy_->appendValidationPoint(static_cast<double>(e.step), e.val_accuracy);
  if (figure_key_.empty()) return;
  if (const std::optional<double> value = e.figures.get(figure_key_)) {
    accuracy_->appendFigurePoint(static_cast<double>(e.step), *value);
  }
}

void CurvesPresenter::showTest(const TestEvaluation& t) {
  if (t.split == "none") return;  // no test figure to mark on the curves
  // An old run's one held-out split validated and gave its final figure: named so.
  const QString name = t.split == "test" ? QString() : QObject::tr("validation (old run)");
  loss_->setTestPoint(static_cast<double>(t.weights_step), t.loss, name);
  accuracy_->setTestPoint(static_cast<double>(t.weights_step), t.accuracy, name);
}

QString CurvesPresenter::markerText(const LearningRateChange& change) {
  return QStringLiteral("lr %1").arg(change.lr, 0, 'g', 3);
}

void CurvesPresenter::markLearningRateChanges(const std::vector<LearningRateChange>& changes) {
  for (const LearningRateChange& change : changes) {
    const double step = static_cast<double>(change.step);
    loss_->addEventMarker(step, markerText(change));
    accuracy_->addEventMarker(step, markerText(change));
  }
}

void CurvesPresenter::setBookmarks(const QVector<CurveMarker>& bookmarks) {
  loss_bookmarks_->setMarkers(bookmarks);
  accuracy_bookmarks_->setMarkers(bookmarks);
}

void CurvesPresenter::setCursor(long long step) {
  loss_->setCursorStep(static_cast<double>(step));
  accuracy_->setCursorStep(static_cast<double>(step));
}

void CurvesPresenter::setReadoutStep(long long step) {
  loss_->setReadoutStep(static_cast<double>(step));
  accuracy_->setReadoutStep(static_cast<double>(step));
}

CurvesPresenter::History CurvesPresenter::history() const {
  return {loss_->trainSeries().points(), accuracy_->trainSeries().points(),
          loss_->validationSeries().points(), accuracy_->validationSeries().points(),
          accuracy_->figureSeries().points()};
}

void CurvesPresenter::restore(const History& h) {
  loss_->appendTrainPoints(h.loss);
  accuracy_->appendTrainPoints(h.accuracy);
  for (const SeriesPoint& p : h.loss_validation) loss_->appendValidationPoint(p.x, p.y);
  for (const SeriesPoint& p : h.accuracy_validation) accuracy_->appendValidationPoint(p.x, p.y);
  for (const SeriesPoint& p : h.figure) accuracy_->appendFigurePoint(p.x, p.y);
}

double CurvesPresenter::smoothing() const {
  return loss_->smoothing();
}

void CurvesPresenter::clearRun() {
  clear();
}

void CurvesPresenter::takeNews(const RunNews& news) {
  if (!news.steps.empty()) showSteps(news.steps);
  for (const EpochSummary& epoch : news.epochs) showEpoch(epoch);
  if (news.test) showTest(*news.test);
  if (!news.learning_rate_changes.empty()) markLearningRateChanges(news.learning_rate_changes);
}

void CurvesPresenter::followStep(long long step) {
  setCursor(step);
}

}  // namespace ascope
