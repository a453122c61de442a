#pragma once
// The Loss and Accuracy docks' one owner. Everything the two curves show comes through here: the
// training steps and validation passes of a live or opened run, the final test figure, learning-
// rate changes and bookmarks as markers, the timeline's cursor and the step the readouts give,
// the name of the task's accuracy. (Before, five classes changed the two panels each their own
// way.) A click on a curve or a marker asks for a step (stepPicked, bookmarkPicked).
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QVector>

#include <vector>

#include "app/gui/views/news/run_news_reader.h"
#include "engine/vocabulary/events.h"
#include "engine/vocabulary/task_descriptor.h"
#include "widgets/curves/curve_marker_layer.h"
#include "widgets/curves/decimating_series.h"

class QWidget;

namespace ascope {

class CurveBookmarks;
class MetricCurvePanel;

class CurvesPresenter : public QObject, public RunNewsReader {
  Q_OBJECT

 public:
  /// Creates both panels (children of `panel_parent`, which the window puts in docks).
  explicit CurvesPresenter(QWidget* panel_parent);

  MetricCurvePanel* loss() const { return loss_; }
  MetricCurvePanel* accuracy() const { return accuracy_; }
  /// The two curves.
  QList<Exportable*> exportables() const override;
  /// What the curves show, for scripted mode's report: "loss_points",
  /// "loss_validation_points", "accuracy_points", "accuracy_validation_points",
  /// "loss_cursor_step", "accuracy_cursor_step".
  QJsonObject report() const override;

  /// A new run: no points, no markers, no cursor.
  void clear();
  // RunNewsReader: the steps, epochs, the test and learning-rate changes; the cursor follows
  // the timeline.
  void clearRun() override;
  void takeNews(const RunNews& news) override;
  void followStep(long long step) override;
  /// The accuracy curve named as `task` counts it ("token accuracy"); null: "accuracy". A task
  /// whose headline figure is another (BLEU, an edit distance) has it beside, on its own axis.
  void nameAccuracy(const TaskDescriptor* task);
  void showSteps(const std::vector<StepMetrics>& steps);
  void showEpoch(const EpochSummary& epoch);
  /// At the step of the weights tested, beside that step's validation point.
  void showTest(const TestEvaluation& test);
  /// "lr 5e-04" on both curves at the step that first used each rate.
  void markLearningRateChanges(const std::vector<LearningRateChange>& changes);
  void setBookmarks(const QVector<CurveMarker>& bookmarks);

  /// The cursor at `step` (the step every dock shows); negative hides it.
  void setCursor(long long step);
  /// The readouts give the figures at `step`; negative: the newest.
  void setReadoutStep(long long step);

  /// What a continued run keeps of the curves: its steps and validation passes so far.
  struct History {
    std::vector<SeriesPoint> loss, accuracy, loss_validation, accuracy_validation, figure;
  };
  History history() const;
  void restore(const History& history);

  /// The smoothing the curves have (the comparison window smooths alike).
  double smoothing() const;
  CurveBookmarks* lossBookmarks() const { return loss_bookmarks_; }
  CurveBookmarks* accuracyBookmarks() const { return accuracy_bookmarks_; }
  /// "lr 5e-04": the label of a change.
  static QString markerText(const LearningRateChange& change);

 Q_SIGNALS:
  /// A curve was clicked, or its cursor dragged, at `step`.
  void stepPicked(long long step);
  /// A bookmark marker was clicked: its exact step.
  void bookmarkPicked(long long step);

 private:
  MetricCurvePanel* loss_;
  MetricCurvePanel* accuracy_;
  CurveBookmarks* loss_bookmarks_;
  CurveBookmarks* accuracy_bookmarks_;
  /// The key of the headline figure drawn beside the accuracy; "" when it is the accuracy.
  std::string figure_key_;
};

}  // namespace ascope
