#include "widgets/curves/run_overlay_plot.h"

#include "widgets/common/plot_exporter.h"
#include "widgets/common/themed_plot.h"
#include "widgets/curves/ema_smoother.h"
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
  plot_->placeLegendAbove();
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
  rebuild();
}

void RunOverlayPlot::setSmoothing(double weight) {
  EmaSmoother check(weight);  // clamps as the main curves do
  if (check.weight() == smoothing_) return;
  smoothing_ = check.weight();
  rebuild();
}

void RunOverlayPlot::rebuild() {
  plot_->clearGraphs();
  bool any = false;
  const auto add = [this](const QString& name, const std::vector<SeriesPoint>& points,
                          bool smoothed) {
    QCPGraph* graph = plot_->addGraph();
    graph->setName(name);
    graph->setAdaptiveSampling(true);
    QVector<QCPGraphData> data;
    data.reserve(static_cast<int>(points.size()));
    EmaSmoother ema(smoothing_);
    for (const SeriesPoint& p : points)
      data.append(QCPGraphData(p.x, smoothed ? ema.add(p.y) : p.y));
    graph->data()->set(data, true);
    return graph;
  };
  const bool smoothing = smoothing_ > 0;
  for (const Series& s : series_) {
    add(s.name, s.points, s.smooth && smoothing);
    any = any || !s.points.empty();
  }
  for (const Series& s : series_) {
    if (s.smooth && smoothing) add(s.name, s.points, false)->removeFromLegend();
  }
  plot_->setEmptyState(!any);
  applyTheme(plot_->theme());
  plot_->rescaleAxes();
  plot_->replot(QCustomPlot::rpQueuedReplot);
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
  const auto color = [&theme](int i) {
    return theme.categorical.isEmpty() ? theme.smoothed
                                       : theme.categorical[i % theme.categorical.size()];
  };
  const int series = static_cast<int>(series_.size());
  int raw = series;  // the raw lines follow the series' own, in the series' order
  for (int i = 0; i < series && i < plot_->graphCount(); ++i) {
    plot_->graph(i)->setPen(QPen(color(i), 1.8));
    if (series_[static_cast<std::size_t>(i)].smooth && smoothing_ > 0 &&
        raw < plot_->graphCount()) {
      plot_->graph(raw++)->setPen(QPen(theme.withAlpha(color(i), theme.dark ? 70 : 60), 1.0));
    }
  }
  // Raw lines behind the smoothed ones.
  for (int i = series; i < plot_->graphCount(); ++i)
    plot_->graph(i)->setLayer(QStringLiteral("grid"));
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
