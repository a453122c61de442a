#include "widgets/themed_plot.h"

#include "widgets/empty_hint.h"

#include <QPainter>
#include <QToolTip>

namespace ascope {

ThemedPlot::ThemedPlot(QWidget* parent) : QCustomPlot(parent) {
  setNoAntialiasingOnDrag(true);
  setPlottingHint(QCP::phCacheLabels, true);
  setMinimumSize(160, 120);
  setMouseTracking(true);  // hover tooltips need moves without a pressed button
  theme_ = PlotTheme::fromPalette(palette(), font());
  theme_.applyTo(this);
}

void ThemedPlot::setEmptyHint(const QString& hint) {
  empty_hint_ = hint;
  update();
}

void ThemedPlot::setEmptyState(bool empty) {
  if (empty_ == empty) return;
  empty_ = empty;
  update();
}

void ThemedPlot::refreshTheme() {
  if (theming_) return;
  theming_ = true;
  theme_ = PlotTheme::fromPalette(palette(), font());
  theme_.applyTo(this);
  Q_EMIT themeChanged(theme_);
  theming_ = false;
  replot(rpQueuedReplot);
}

void ThemedPlot::placeLegendAbove(QCPAxisRect* rect) {
  // A sub-grid [spacer | legend] with all stretch on the spacer right-aligns the legend at its
  // natural size; QCPLayoutGrid has no alignment of its own.
  auto* row = new QCPLayoutGrid;
  plotLayout()->insertRow(0);
  plotLayout()->addElement(0, 0, row);
  plotLayout()->setRowStretchFactor(0, 0.001);
  row->addElement(0, 0, new QCPLayoutElement(this));
  legend->setVisible(true);
  if (legend->layout()) legend->layout()->take(legend);
  row->addElement(0, 1, legend);
  row->setColumnStretchFactor(0, 1000);
  row->setColumnStretchFactor(1, 0.001);
  row->setMargins(QMargins(rect->margins().left(), 2, 8, 0));
  legend->setFillOrder(QCPLegend::foColumnsFirst);
  legend->setMargins(QMargins(6, 4, 6, 4));
  legend->setBorderPen(Qt::NoPen);
  legend->setBrush(Qt::NoBrush);
}

void ThemedPlot::placeLegendRight(QCPAxisRect* rect) {
  auto* column = new QCPLayoutGrid;
  plotLayout()->addElement(0, plotLayout()->columnCount(), column);
  plotLayout()->setColumnStretchFactor(plotLayout()->columnCount() - 1, 0.001);
  legend->setVisible(true);
  if (legend->layout()) legend->layout()->take(legend);
  column->addElement(0, 0, legend);
  column->addElement(1, 0, new QCPLayoutElement(this));
  column->setRowStretchFactor(0, 0.001);
  column->setRowStretchFactor(1, 1000);
  column->setMargins(QMargins(0, rect->margins().top(), 0, 0));
  legend->setFillOrder(QCPLegend::foRowsFirst);
  legend->setBorderPen(Qt::NoPen);
  legend->setBrush(Qt::NoBrush);
}

void ThemedPlot::showToolTipAt(const QPoint& widget_pos, const QString& text) {
  if (text.isEmpty()) {
    QToolTip::hideText();
    return;
  }
  QToolTip::showText(mapToGlobal(widget_pos), text, this);
}

void ThemedPlot::updateLayout() {
  QCustomPlot::updateLayout();
  for (int pass = 0; pass < 3 && adjustLayout(); ++pass) QCustomPlot::updateLayout();
}

void ThemedPlot::changeEvent(QEvent* event) {
  QCustomPlot::changeEvent(event);
  if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange ||
      event->type() == QEvent::ApplicationPaletteChange)
    refreshTheme();
}

void ThemedPlot::showEvent(QShowEvent* event) {
  QCustomPlot::showEvent(event);
  syncDevicePixelRatio();
}

void ThemedPlot::syncDevicePixelRatio() {
  // The buffers are created before the widget knows its screen; a window moved to a High-DPI
  // screen would otherwise show a blurry upscaled plot.
  const double dpr = devicePixelRatioF();
  if (!qFuzzyCompare(bufferDevicePixelRatio(), dpr)) {
    setBufferDevicePixelRatio(dpr);
    replot(rpQueuedReplot);
  }
}

void ThemedPlot::paintEvent(QPaintEvent* event) {
  syncDevicePixelRatio();
  if (!empty_ || empty_hint_.isEmpty()) {
    QCustomPlot::paintEvent(event);
    return;
  }
  QPainter painter(this);
  painter.fillRect(rect(), theme_.background);
  painter.setFont(EmptyHint::hintFont(theme_.font));
  painter.setPen(palette().color(QPalette::PlaceholderText));
  painter.drawText(rect().adjusted(16, 16, -16, -16), Qt::AlignCenter | Qt::TextWordWrap,
                   empty_hint_);
}

}  // namespace ascope
