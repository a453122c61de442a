#include "widgets/encoding/dimension_curves_plot.h"

namespace ascope {

DimensionCurvesPlot::DimensionCurvesPlot(QWidget* parent) : ThemedPlot(parent) {
  xAxis->setLabel(tr("position"));
  yAxis->setLabel(tr("encoding value"));
  xAxis2->setVisible(true);
  yAxis2->setVisible(true);
  xAxis2->setTicks(false);
  yAxis2->setTicks(false);
  xAxis2->setTickLabels(false);
  yAxis2->setTickLabels(false);
  setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  placeLegendRight(axisRect());
  setEmptyHint(tr("No positional encoding yet"));
  setEmptyState(true);
  connect(this, &ThemedPlot::themeChanged, this, &DimensionCurvesPlot::styleGraphs);
  connect(this, &QCustomPlot::mouseDoubleClick, this, [this] {
    rescaleAxes();
    replot(rpQueuedReplot);
  });
  connect(this, &QCustomPlot::mouseMove, this,
          [this](QMouseEvent* event) { showToolTipAt(event->pos(), hoverText(event->pos())); });
}

void DimensionCurvesPlot::setMatrix(const LabeledMatrix& matrix) {
  matrix_ = matrix;
  rebuildGraphs();
}

void DimensionCurvesPlot::setDimensions(const QList<int>& dimensions) {
  dimensions_ = dimensions;
  rebuildGraphs();
}

void DimensionCurvesPlot::clear() {
  matrix_ = LabeledMatrix();
  rebuildGraphs();
}

void DimensionCurvesPlot::rebuildGraphs() {
  clearGraphs();
  const bool valid = matrix_.isValid();
  if (valid) {
    for (int dim : dimensions_) {
      if (dim < 0 || dim >= matrix_.cols) continue;
      QCPGraph* graph = addGraph();
      graph->setName(tr("dim %1").arg(matrix_.colLabel(dim)));
      graph->setProperty("dimension", dim);
      QVector<QCPGraphData> data;
      data.reserve(matrix_.rows);
      for (int p = 0; p < matrix_.rows; ++p) data.append(QCPGraphData(p, matrix_.at(p, dim)));
      graph->data()->set(data, true);
    }
  }
  setEmptyState(!valid);
  if (valid) {
    rescaleAxes();
    xAxis->setRange(0, std::max(1, matrix_.rows - 1));
    yAxis->scaleRange(1.08, yAxis->range().center());
  }
  styleGraphs(theme());
  replot(rpQueuedReplot);
}

void DimensionCurvesPlot::styleGraphs(const PlotTheme& theme) {
  for (int i = 0; i < graphCount(); ++i) {
    const QColor color = theme.categorical[i % theme.categorical.size()];
    graph(i)->setPen(QPen(color, 2.0));
  }
}

QString DimensionCurvesPlot::hoverText(const QPoint& pos) const {
  if (isEmptyState() || !axisRect()->rect().contains(pos)) return {};
  const int position = qRound(xAxis->pixelToCoord(pos.x()));
  if (position < 0 || position >= matrix_.rows) return {};
  QStringList lines{tr("<b>position %1</b>").arg(matrix_.rowLabel(position).toHtmlEscaped())};
  for (int i = 0; i < graphCount(); ++i) {
    const int dim = graph(i)->property("dimension").toInt();
    lines << QStringLiteral("<span style='color:%1'>■</span> dim %2: %3")
                 .arg(graph(i)->pen().color().name(), QString::number(dim),
                      QString::number(matrix_.at(position, dim), 'f', 4));
  }
  return lines.join(QStringLiteral("<br>"));
}

}  // namespace ascope
