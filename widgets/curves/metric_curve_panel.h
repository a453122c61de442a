#pragma once

#include "widgets/common/exportable.h"
#include "widgets/curves/decimating_series.h"
#include "widgets/curves/ema_smoother.h"

#include <QWidget>

#include <optional>
#include <vector>

class QCheckBox;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QDoubleSpinBox;
class QLabel;
class QMouseEvent;

namespace ascope {

class CurveEventMarkers;
class FittingLabel;
class ThemedPlot;
struct PlotTheme;

/// One training metric over steps (used for loss and for accuracy): the raw training series
/// (faint), its exponential moving average, validation results at epoch ends and, once a run has
/// ended, its test result on the whole test split (one labelled marker). Follows new data
/// until the user pans or zooms; double-click returns to following. History is bounded (see
/// DecimatingSeries), so a run of millions of steps keeps a few hundred kilobytes per series.
/// A vertical cursor marks the step the other docks show (the run's timeline); a click on the
/// plot, or dragging the cursor, asks for another step (stepPicked).
class MetricCurvePanel : public QWidget, public Exportable {
  Q_OBJECT

 public:
  /// `metric_name` labels the y axis ("loss", "accuracy") and names exports.
  explicit MetricCurvePanel(const QString& metric_name, QWidget* parent = nullptr);

  void setMetricName(const QString& name);
  QString metricName() const { return metric_name_; }

  /// Appending is cheap: data is copied into the plot once per replot, and replots are queued,
  /// so a burst of appends costs one redraw.
  void appendTrainPoint(double step, double value);
  void appendTrainPoints(const std::vector<SeriesPoint>& points);
  /// A validation result; `step` is the training step at the end of the epoch.
  void appendValidationPoint(double step, double value);
  /// The run's final test figure (the whole test split), a labelled marker at `step`; a later
  /// call moves it. `name` labels it ("test"; a run made before separate test splits names its
  /// figure for the validation split it was). clear() removes it.
  void setTestPoint(double step, double value, const QString& name = {});
  bool hasTestPoint() const { return test_.has_value(); }
  /// A second figure measured at each validation (a translation's BLEU beside its accuracy), on
  /// an axis of its own at the right, titled `name`; an empty name hides it. clear() keeps the
  /// name and drops the points.
  void setFigureName(const QString& name);
  QString figureName() const { return figure_name_; }
  void appendFigurePoint(double step, double value);
  const DecimatingSeries& figureSeries() const { return figure_; }
  QCPGraph* figureGraph() const { return figure_graph_; }
  void clear();

  /// Something that happened to the run at `step` ("lr 5e-4"): a line and a label on the plot,
  /// apart from bookmarks. clear() removes them.
  void addEventMarker(double step, const QString& text);
  CurveEventMarkers* eventMarkers() const { return event_markers_; }

  /// EMA weight of the past, 0 (off) .. 0.999. Recomputes the smoothed curve from the kept points.
  void setSmoothing(double weight);
  double smoothing() const { return ema_.weight(); }

  void setLogScale(bool on);
  bool logScale() const { return log_scale_; }

  /// Puts the step cursor at `step`; a negative step hides it.
  void setCursorStep(double step);
  double cursorStep() const { return cursor_step_; }
  /// The readout above the plot gives the figures at `step` (a replayed snapshot's step); a
  /// negative step gives the newest (a live run, or a run's last step).
  void setReadoutStep(double step);
  QString readoutText() const;

  /// Rescales to all data and follows new points again.
  void resetView();
  bool isFollowing() const { return following_; }

  const DecimatingSeries& trainSeries() const { return train_; }
  const DecimatingSeries& smoothedSeries() const { return smoothed_; }
  const DecimatingSeries& validationSeries() const { return validation_; }
  ThemedPlot* plot() const { return plot_; }
  QCPGraph* trainGraph() const { return raw_graph_; }
  QCPGraph* smoothedGraph() const { return smoothed_graph_; }
  QCPGraph* validationGraph() const { return validation_graph_; }
  QCPGraph* testGraph() const { return test_graph_; }
  QCPItemText* testLabel() const { return test_label_; }

  /// Tooltip text for the data point nearest to `pos` (plot widget coordinates) within a few
  /// pixels; empty when there is none.
  QString hoverText(const QPoint& pos) const;

  QString exportBaseName() const override;
  ExportResult exportImage(const QString& path, ImageFormat format,
                           const ExportSize& size) override;
  ExportResult exportCsv(const QString& path) const override;
  /// Exported figures get this title above the plot (the window shows none).
  void setExportTitle(const QString& title) override { export_title_ = title; }

 Q_SIGNALS:
  void logScaleChanged(bool on);
  /// The user clicked the plot at `step`, or dragged the cursor there.
  void stepPicked(double step);

 private:
  void markDirty();
  void syncGraphs();
  void fillTestGraph();
  void rescaleToData();
  void applyTheme(const PlotTheme& theme);
  void updateReadout();
  void onMouseMove(QMouseEvent* event);
  void onMousePress(QMouseEvent* event);
  void onMouseRelease(QMouseEvent* event);
  /// The step under x pixel `x`, clamped to the data.
  double stepAt(int x) const;
  /// The largest step of any series.
  double lastStep() const;
  void showContextMenu(const QPoint& pos);

  QString metric_name_;
  QString export_title_;
  DecimatingSeries train_;
  DecimatingSeries smoothed_;
  DecimatingSeries validation_;
  DecimatingSeries figure_;
  QString figure_name_;
  std::optional<SeriesPoint> test_;
  QString test_name_;  ///< what the test point is called on the plot
  EmaSmoother ema_{0.9};
  bool log_scale_ = false;
  bool following_ = true;
  bool dirty_ = false;
  double cursor_step_ = -1;
  double readout_step_ = -1;
  bool dragging_cursor_ = false;  // pressed on the cursor: moving drags it instead of panning
  QPoint press_pos_;

  ThemedPlot* plot_ = nullptr;
  QCPGraph* raw_graph_ = nullptr;
  QCPGraph* figure_graph_ = nullptr;
  QCPGraph* smoothed_graph_ = nullptr;
  QCPGraph* validation_graph_ = nullptr;
  QCPGraph* test_graph_ = nullptr;
  QCPItemText* test_label_ = nullptr;
  QCPItemStraightLine* cursor_ = nullptr;
  CurveEventMarkers* event_markers_ = nullptr;
  FittingLabel* readout_ = nullptr;
  QDoubleSpinBox* smoothing_box_ = nullptr;
  QCheckBox* log_box_ = nullptr;
};

}  // namespace ascope
