#include "widgets/tables/reliability_diagram_view.h"

#include <QVBoxLayout>

#include "widgets/common/themed_plot.h"

namespace ascope {
namespace {

constexpr auto kDiagonal = "calibrated";

QString eceText(double ece) {
  return QString::number(ece, 'f', 3);
}

/// Four significant digits: a fitted 1.004 must not read as 1.
QString temperatureText(double t) {
  return QString::number(t, 'g', 4);
}

}  // namespace

ReliabilityDiagramView::ReliabilityDiagramView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("reliabilityDiagram"));
  plot_ = new ThemedPlot(this);
  plot_->setEmptyHint(tr("No class probabilities to check"));
  plot_->setEmptyState(true);
  plot_->xAxis->setLabel(tr("confidence"));
  plot_->yAxis->setLabel(tr("accuracy"));
  plot_->xAxis->setRange(0, 1);
  plot_->yAxis->setRange(0, 1);
  plot_->legend->setVisible(true);
  plot_->placeLegendAbove();
  plot_->setMinimumSize(220, 200);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  connect(plot_, &ThemedPlot::themeChanged, this, &ReliabilityDiagramView::applyTheme);
}

void ReliabilityDiagramView::setDiagram(const ReliabilityDiagramData& data) {
  data_ = data;
  rebuild();
}

void ReliabilityDiagramView::clearDiagram() {
  data_ = ReliabilityDiagramData{};
  rebuild();
}

QString ReliabilityDiagramView::title() const {
  if (data_.isEmpty()) return {};
  if (data_.temperature == 1.0) return tr("ECE %1").arg(eceText(data_.ece_after));
  return tr("ECE %1 → %2 at temperature %3")
      .arg(eceText(data_.ece_before), eceText(data_.ece_after), temperatureText(data_.temperature));
}

void ReliabilityDiagramView::rebuild() {
  plot_->clearPlottables();
  plot_->setEmptyState(data_.isEmpty());
  setToolTip(data_.isEmpty() ? QString() : title() + QStringLiteral("\n") + data_.source);
  if (!data_.isEmpty()) {
    QCPGraph* diagonal = plot_->addGraph();
    diagonal->setName(tr(kDiagonal));
    diagonal->setData({0.0, 1.0}, {0.0, 1.0});
    auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
    bars->setName(
        data_.temperature == 1.0
            ? tr("accuracy: ECE %1").arg(eceText(data_.ece_after))
            : tr("T %1: ECE %2").arg(temperatureText(data_.temperature), eceText(data_.ece_after)));
    for (const ReliabilityBar& b : data_.after) {
      if (b.count > 0) bars->addData((b.lower + b.upper) / 2, b.accuracy);
    }
    if (!data_.after.isEmpty()) bars->setWidth((data_.after[0].upper - data_.after[0].lower) * 0.9);
    if (data_.temperature != 1.0) {
      // The model's own probabilities: where each bin's samples sat before the temperature.
      QCPGraph* own = plot_->addGraph();
      own->setName(tr("own: ECE %1").arg(eceText(data_.ece_before)));
      for (const ReliabilityBar& b : data_.before) {
        if (b.count > 0) own->addData(b.confidence, b.accuracy);
      }
    }
  }
  applyTheme(plot_->theme());
  plot_->xAxis->setRange(0, 1);
  plot_->yAxis->setRange(0, 1.05);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ReliabilityDiagramView::applyTheme(const PlotTheme& theme) {
  for (int i = 0; i < plot_->plottableCount(); ++i) {
    QCPAbstractPlottable* p = plot_->plottable(i);
    if (auto* bars = qobject_cast<QCPBars*>(p)) {
      bars->setPen(QPen(theme.validation, 1));
      bars->setBrush(theme.withAlpha(theme.validation, 110));
    } else if (auto* graph = qobject_cast<QCPGraph*>(p)) {
      if (graph->name() == tr(kDiagonal)) {
        graph->setPen(QPen(theme.muted, 1, Qt::DashLine));
      } else {
        graph->setPen(QPen(theme.bad, 1.6));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, theme.bad, 6));
      }
    }
  }
}

}  // namespace ascope
