#pragma once
// One metric of several runs on one plot: one coloured line per run, named in a legend, so that
// two runs can be compared at a glance (File → Compare with run…). Training series are smoothed
// as the main window's curves are (an exponential moving average, the raw points faint behind),
// so two noisy runs are compared by their trend, not by their noise.
#include "widgets/common/exportable.h"
#include "widgets/curves/decimating_series.h"

#include <QWidget>

#include <vector>

class QCPGraph;

namespace ascope {

class ThemedPlot;
struct PlotTheme;

class RunOverlayPlot : public QWidget, public Exportable {
  Q_OBJECT

 public:
  struct Series {
    QString name;  ///< the legend entry: which run
    std::vector<SeriesPoint> points;
    bool smooth = false;  ///< a per-step training series (validation points are not smoothed)
  };

  explicit RunOverlayPlot(const QString& metric_name, QWidget* parent = nullptr);

  /// Replaces every line; the view is rescaled to the data.
  void setSeries(const std::vector<Series>& series);
  void setLogScale(bool on);
  /// EMA weight of the past for the smoothed series, 0 (off) .. 0.999; as MetricCurvePanel's.
  void setSmoothing(double weight);
  double smoothing() const { return smoothing_; }
  /// The series' lines (graph(i) is series i, smoothed where it is); the faint raw lines of the
  /// smoothed series come after them.
  int graphCount() const;
  QCPGraph* graph(int i) const;
  ThemedPlot* plot() const { return plot_; }

  QString exportBaseName() const override;
  ExportResult exportImage(const QString& path, ImageFormat format,
                           const ExportSize& size) override;
  ExportResult exportCsv(const QString& path) const override;

 private:
  void applyTheme(const PlotTheme& theme);
  void rebuild();

  QString metric_name_;
  std::vector<Series> series_;
  double smoothing_ = 0.9;
  ThemedPlot* plot_ = nullptr;
};

}  // namespace ascope
