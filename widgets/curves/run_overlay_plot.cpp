#include "widgets/curves/run_overlay_plot.h"

#include "widgets/common/plot_exporter.h"
#include "widgets/common/themed_plot.h"
#include "widgets/curves/log_axis_ticker.h"

#include <QTextStream>
#include <QVBoxLayout>

namespace ascope {

RunOverlayPlot::RunOverlayPlot(const QString& metric_name, QWidget* parent)
    : QWidget(parent), metric_name_(metric_name) {
  plot_ = new ThemedPlot(this);
  plot_->setEmptyHint(tr("No %1 in these runs").arg(metric_name));
  plot_->setEmptyState(true);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->xAxis->setLabel(tr("step"));
  plot_->yAxis->setLabel(metric_name_);
  plot_->legend->setVisible(true);
  plot_->placeLegendAbove(plot_->axisRect());
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  connect(plot_, &ThemedPlot::themeChanged, this, &RunOverlayPlot::applyTheme);
  connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] {
    plot_->rescaleAxes();
    plot_->replot(QCustomPlot::rpQueuedReplot);
  });
}

void RunOverlayPlot::setSeries(const std::vector<Series>& series) {
  series_ = series;
  plot_->clearGraphs();
  bool any = false;
  for (const Series& s : series_) {
    QCPGraph* graph = plot_->addGraph();
    graph->setName(s.name);
    graph->setAdaptiveSampling(true);
    QVector<QCPGraphData> data;
    data.reserve(static_cast<int>(s.points.size()));
    for (const SeriesPoint& p : s.points) data.append(QCPGraphData(p.x, p.y));
    graph->data()->set(data, true);
    any = any || !s.points.empty();
  }
  plot_->setEmptyState(!any);
  applyTheme(plot_->theme());
  plot_->rescaleAxes();
}

void RunOverlayPlot::setLogScale(bool on) {
  QCPAxis* y = plot_->yAxis;
  y->setScaleType(on ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
  if (on) {
    y->setTicker(QSharedPointer<LogAxisTicker>::create());
  } else {
    y->setTicker(QSharedPointer<QCPAxisTicker>::create());
  }
  y->setNumberFormat(on ? QStringLiteral("gb") : QStringLiteral("g"));
  plot_->rescaleAxes();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

int RunOverlayPlot::graphCount() const {
  return plot_->graphCount();
}

QCPGraph* RunOverlayPlot::graph(int i) const {
  return plot_->graph(i);
}

void RunOverlayPlot::applyTheme(const PlotTheme& theme) {
  for (int i = 0; i < plot_->graphCount(); ++i) {
    const QColor color = theme.categorical.isEmpty()
                             ? theme.smoothed
                             : theme.categorical[i % theme.categorical.size()];
    plot_->graph(i)->setPen(QPen(color, 1.8));
  }
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString RunOverlayPlot::exportBaseName() const {
  return QStringLiteral("compare_") + metric_name_;
}

ExportResult RunOverlayPlot::exportImage(const QString& path, ImageFormat format,
                                         const ExportSize& size) {
  return PlotExporter::save(plot_, path, format, size);
}

ExportResult RunOverlayPlot::exportCsv(const QString& path) const {
  return PlotExporter::writeCsv(
      path, {QStringLiteral("run"), QStringLiteral("step"), metric_name_},
      [this](QTextStream& out) {
        for (const Series& s : series_) {
          for (const SeriesPoint& p : s.points) {
            out << '"' << QString(s.name).replace(QLatin1Char('"'), QStringLiteral("\"\"")) << "\","
                << QString::number(p.x, 'g', 17) << ',' << QString::number(p.y, 'g', 9) << '\n';
          }
        }
      });
}

}  // namespace ascope
