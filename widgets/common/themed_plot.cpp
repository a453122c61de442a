#include "widgets/common/themed_plot.h"

#include "widgets/common/empty_hint.h"

#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <vector>

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

void ThemedPlot::placeLegendAbove() {
  // A sub-grid [spacer | legend] with all stretch on the spacer right-aligns the legend at its
  // natural size; QCPLayoutGrid has no alignment of its own.
  auto* row = new QCPLayoutGrid;
  legend_row_ = row;
  plotLayout()->insertRow(0);
  plotLayout()->addElement(0, 0, row);
  plotLayout()->setRowStretchFactor(0, 0.001);
  row->addElement(0, 0, new QCPLayoutElement(this));
  legend->setVisible(true);
  if (legend->layout()) legend->layout()->take(legend);
  row->addElement(0, 1, legend);
  row->setColumnStretchFactor(0, 1000);
  row->setColumnStretchFactor(1, 0.001);
  // Right-aligned, so the row may reach left over the tick labels: a narrow dock then keeps two
  // columns of entries instead of one tall column that leaves the curves a strip.
  row->setMargins(QMargins(2, 2, 8, 0));
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

int ThemedPlot::widthShortfall(const QCPLayoutElement* element) {
  return std::max(0, element->minimumSize().width() - element->outerRect().width());
}

bool ThemedPlot::fitTitle(QCPTextElement* title, const QString& full, int beside) {
  // Centred over its column, the title may reach into the margins that centre the cells, as
  // far on the left as on the right: the plot less the column beside is what it may take.
  const int room = std::max(1, viewport().width() - 2 * kPad - beside - title->margins().left() -
                                   title->margins().right());
  const QFontMetrics metrics(title->font());
  QString shown = full;
  if (metrics.horizontalAdvance(full) > room) {
    // As many of its parts on each line as fit; a part wider than the room alone is elided.
    const QString separator = QStringLiteral(" · ");
    QStringList lines;
    for (const QString& part : full.split(separator)) {
      if (!lines.isEmpty() && metrics.horizontalAdvance(lines.back() + separator + part) <= room) {
        lines.back() += separator + part;
      } else {
        lines.push_back(part);
      }
    }
    for (QString& line : lines) line = metrics.elidedText(line, Qt::ElideRight, room);
    shown = lines.join(QLatin1Char('\n'));
  }
  if (shown == title->text()) return false;
  title->setText(shown);
  return true;
}

void ThemedPlot::updateLayout() {
  QCustomPlot::updateLayout();
  if (wrapLegend()) QCustomPlot::updateLayout();
  for (int pass = 0; pass < 3 && adjustLayout(); ++pass) QCustomPlot::updateLayout();
  Q_EMIT laidOut();
}

bool ThemedPlot::wrapLegend() {
  if (legend_row_ == nullptr || !legend->visible() || legend->itemCount() == 0) return false;
  const int room =
      legend_row_->rect().width() - legend->margins().left() - legend->margins().right();
  if (room <= 0) return false;
  // itemCount() counts the grid's cells, and a wrapped grid has empty ones.
  std::vector<int> entries;
  for (int i = 0; i < legend->itemCount(); ++i) {
    if (const QCPAbstractLegendItem* item = legend->item(i))
      entries.push_back(item->minimumOuterSizeHint().width());
  }
  const int count = static_cast<int>(entries.size());
  if (count == 0) return false;
  int columns = count;
  for (; columns > 1; --columns) {
    // Entries fill the rows left to right; a column is as wide as its widest entry.
    std::vector<int> widths(static_cast<std::size_t>(columns), 0);
    for (int i = 0; i < count; ++i) {
      int& width = widths[static_cast<std::size_t>(i % columns)];
      width = std::max(width, entries[static_cast<std::size_t>(i)]);
    }
    int total = (columns - 1) * legend->columnSpacing();
    for (int width : widths) total += width;
    if (total <= room) break;
  }
  const int wrap = columns == count ? 0 : columns;  // 0: one row, however many entries
  if (legend->wrap() == wrap) return false;
  legend->setWrap(wrap);
  legend->setFillOrder(QCPLegend::foColumnsFirst, true);
  return true;
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
