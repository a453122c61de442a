#pragma once
// One metric of several runs on one plot: one coloured line per run, named in a legend, so that
// two runs can be compared at a glance (File → Compare with run…).
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
  };

  explicit RunOverlayPlot(const QString& metric_name, QWidget* parent = nullptr);

  /// Replaces every line; the view is rescaled to the data.
  void setSeries(const std::vector<Series>& series);
  void setLogScale(bool on);
  int graphCount() const;
  QCPGraph* graph(int i) const;
  ThemedPlot* plot() const { return plot_; }

  QString exportBaseName() const override;
  ExportResult exportImage(const QString& path, ImageFormat format,
                           const ExportSize& size) override;
  ExportResult exportCsv(const QString& path) const override;

 private:
  void applyTheme(const PlotTheme& theme);

  QString metric_name_;
  std::vector<Series> series_;
  ThemedPlot* plot_ = nullptr;
};

}  // namespace ascope
