#include "widgets/tables/head_stats_grid.h"

#include "widgets/tables/head_stats_store.h"
#include "widgets/tables/head_stats_text.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QTextDocument>
#include <QToolTip>

#include <algorithm>
#include <climits>
#include <cmath>

namespace ascope {
namespace {

// The curve's line and dots reach a little outside the plot rect.
constexpr int kCurveOverhang = 3;

QColor mix(const QColor& a, const QColor& b, double t) {
  return QColor::fromRgbF(static_cast<float>(a.redF() * (1 - t) + b.redF() * t),
                          static_cast<float>(a.greenF() * (1 - t) + b.greenF() * t),
                          static_cast<float>(a.blueF() * (1 - t) + b.blueF() * t));
}

}  // namespace

HeadStatsGrid::HeadStatsGrid(const HeadStatsStore* store, QWidget* parent)
    : QWidget(parent), store_(store), theme_(PlotTheme::fromPalette(palette(), font())) {
  setAttribute(Qt::WA_OpaquePaintEvent);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void HeadStatsGrid::setSelection(const QString& group, const QString& metric, double y_min,
                                 double y_max) {
  group_ = group;
  metric_ = metric;
  y_min_ = y_min;
  y_max_ = y_max > y_min ? y_max : y_min + 1.0;
  dropCurves();
  refresh();
}

void HeadStatsGrid::setNotes(std::vector<HeadKindNote> notes) {
  notes_ = std::move(notes);
  update();
}

void HeadStatsGrid::setCursorStep(std::int64_t step) {
  cursor_step_ = step < 0 ? -1 : step;
  update();
}

void HeadStatsGrid::setPickedCell(int layer, int head) {
  picked_layer_ = layer;
  picked_head_ = head;
  update();
}

void HeadStatsGrid::refresh() {
  dropCurves();
  const int layers = store_->layerCount(group_);
  const int heads = store_->headCount(group_);
  if (layers != layers_ || heads != heads_) {
    layers_ = layers;
    heads_ = heads;
    updateGeometry();
  }
  update();
}

HeadStatsGrid::Metrics HeadStatsGrid::fontSizes() const {
  const QFontMetrics fm = fontMetrics();
  Metrics m;
  m.text_height = fm.height();
  m.pad = std::max(2, fm.height() / 6);
  m.margin = std::max(4, fm.height() / 3);
  m.gap = std::max(2, fm.height() / 8);
  m.row_header = fm.horizontalAdvance(QStringLiteral("L%1").arg(std::max(layers_, 10))) + 2 * m.pad;
  m.column_header = fm.height() + m.pad;
  // Room for "−12.3" beside a short stretch of curve, and a curve at least a line tall.
  m.min_cell_w =
      std::max(fm.horizontalAdvance(QStringLiteral("\u221288.88")) + 2 * m.pad, 3 * fm.height());
  m.min_cell_h = fm.height() + m.pad + std::max(12, fm.height()) + 2 * m.pad;
  return m;
}

HeadStatsGrid::Layout HeadStatsGrid::layoutFor(const QSize& size) const {
  const Metrics m = fontSizes();
  Layout l;
  if (layers_ <= 0 || heads_ <= 0) return l;
  const int avail_w = size.width() - 2 * m.margin - m.row_header;
  const int avail_h = size.height() - 2 * m.margin - m.column_header;
  // Wide cells stretch the curves rather than the text; beyond ~16 lines wide they only look
  // empty, so a few-head model leaves room on the right.
  l.cell_w = std::clamp(avail_w / heads_ - m.gap, m.min_cell_w,
                        std::max(m.min_cell_w, 16 * m.text_height));
  // Cells flatter than the curve needs are no easier to read: cap the height by the width.
  const int max_h = std::max(m.min_cell_h, static_cast<int>(l.cell_w * 0.6));
  l.cell_h = std::clamp(avail_h / layers_ - m.gap, m.min_cell_h, max_h);
  return l;
}

QSize HeadStatsGrid::minimumSizeHint() const {
  const Metrics m = fontSizes();
  const int heads = std::max(1, heads_), layers = std::max(1, layers_);
  return QSize(2 * m.margin + m.row_header + heads * (m.min_cell_w + m.gap),
               2 * m.margin + m.column_header + layers * (m.min_cell_h + m.gap));
}

QSize HeadStatsGrid::sizeHint() const {
  const Metrics m = fontSizes();
  const int heads = std::max(1, heads_), layers = std::max(1, layers_);
  return QSize(2 * m.margin + m.row_header + heads * (m.min_cell_w * 3 / 2 + m.gap),
               2 * m.margin + m.column_header + layers * (m.min_cell_h * 3 / 2 + m.gap));
}

QRect HeadStatsGrid::cellRect(int layer, int head) const {
  if (layer < 0 || head < 0 || layer >= layers_ || head >= heads_) return {};
  const Metrics m = fontSizes();
  const Layout l = layoutFor(size());
  return QRect(m.margin + m.row_header + head * (l.cell_w + m.gap),
               m.margin + m.column_header + layer * (l.cell_h + m.gap), l.cell_w, l.cell_h);
}

QRect HeadStatsGrid::plotRect(int layer, int head) const {
  const QRect cell = cellRect(layer, head);
  if (cell.isEmpty()) return {};
  const Metrics m = fontSizes();
  return cell.adjusted(m.pad + 1, m.pad + m.text_height, -m.pad - 1, -m.pad - 1);
}

std::pair<int, int> HeadStatsGrid::cellAt(const QPoint& pos) const {
  if (layers_ <= 0 || heads_ <= 0) return {-1, -1};
  const Metrics m = fontSizes();
  const Layout l = layoutFor(size());
  const int x = pos.x() - m.margin - m.row_header;
  const int y = pos.y() - m.margin - m.column_header;
  if (x < 0 || y < 0) return {-1, -1};
  const int head = x / (l.cell_w + m.gap), layer = y / (l.cell_h + m.gap);
  if (head >= heads_ || layer >= layers_ || !cellRect(layer, head).contains(pos)) return {-1, -1};
  return {layer, head};
}

double HeadStatsGrid::stepToX(const QRect& plot, std::int64_t step) const {
  const std::vector<std::int64_t>& steps = store_->steps();
  if (steps.size() < 2 || steps.back() == steps.front()) return plot.center().x();
  const double t = double(step - steps.front()) / double(steps.back() - steps.front());
  return plot.left() + t * plot.width();
}

double HeadStatsGrid::valueToY(const QRect& plot, double value) const {
  const double t = std::clamp((value - y_min_) / (y_max_ - y_min_), 0.0, 1.0);
  return plot.bottom() - t * plot.height();
}

std::int64_t HeadStatsGrid::stepAt(int layer, int head, int x) const {
  const QRect plot = plotRect(layer, head);
  const std::vector<std::int64_t>& steps = store_->steps();
  if (plot.isEmpty() || steps.empty()) return -1;
  const double t =
      plot.width() > 0 ? std::clamp(double(x - plot.left()) / plot.width(), 0.0, 1.0) : 0.0;
  const auto step =
      static_cast<std::int64_t>(std::llround(steps.front() + t * (steps.back() - steps.front())));
  const auto sample = store_->nearest(group_, metric_, layer, head, step);
  return sample ? sample->step : -1;
}

std::optional<double> HeadStatsGrid::shownValue(int layer, int head) const {
  const auto sample = cursor_step_ >= 0
                          ? store_->atOrBefore(group_, metric_, layer, head, cursor_step_)
                          : store_->latest(group_, metric_, layer, head);
  if (!sample) return std::nullopt;
  return sample->value;
}

QString HeadStatsGrid::valueText(int layer, int head) const {
  const auto value = shownValue(layer, head);
  return value ? headStatsValueText(*value) : QStringLiteral("–");
}

const HeadKindNote* HeadStatsGrid::latestNote(int layer, int head) const {
  const HeadKindNote* latest = nullptr;
  for (const HeadKindNote& note : notes_)
    if (note.group == group_ && note.layer == layer && note.head == head &&
        (!latest || note.step >= latest->step))
      latest = &note;
  return latest;
}

QString HeadStatsGrid::hoverText(const QPoint& pos) const {
  const auto [layer, head] = cellAt(pos);
  if (layer < 0) return {};
  const QString name = headStatsHeadName(group_, layer, head);
  const QString metric = headStatsMetricLabel(metric_);
  const std::int64_t step = stepAt(layer, head, pos.x());
  const auto sample = step >= 0 ? store_->atOrBefore(group_, metric_, layer, head, step)
                                : std::optional<HeadStatsStore::Sample>();
  QString text = sample ? tr("%1 — %2 %3 at step %4")
                              .arg(name, metric, headStatsValueText(sample->value),
                                   headStatsStepText(sample->step))
                        : tr("%1 — no %2 yet").arg(name, metric);
  if (const HeadKindNote* note = latestNote(layer, head))
    text += QLatin1Char('\n') + tr("step %1: %2").arg(headStatsStepText(note->step), note->text);
  return text;
}

bool HeadStatsGrid::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const QString text = hoverText(help->pos());
    if (text.isEmpty()) {
      QToolTip::hideText();
      event->ignore();
    } else {
      // Note texts may hold "<" (tokens such as "<s>"): never read them as markup.
      const auto [layer, head] = cellAt(help->pos());
      QToolTip::showText(help->globalPos(), Qt::convertFromPlainText(text), this,
                         cellRect(layer, head));
    }
    return true;
  }
  return QWidget::event(event);
}

void HeadStatsGrid::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
    theme_ = PlotTheme::fromPalette(palette(), font());
    dropCurves();
    if (event->type() == QEvent::FontChange) updateGeometry();
    update();
  }
  QWidget::changeEvent(event);
}

void HeadStatsGrid::resizeEvent(QResizeEvent* event) {
  dropCurves();
  QWidget::resizeEvent(event);
}

void HeadStatsGrid::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
  const auto [layer, head] = cellAt(event->pos());
  if (layer < 0) return;
  setPickedCell(layer, head);
  Q_EMIT cellClicked(layer, head, stepAt(layer, head, event->pos().x()));
}

void HeadStatsGrid::paintEvent(QPaintEvent* event) {
  QPainter painter(this);
  painter.fillRect(event->rect(), theme_.background);
  if (layers_ <= 0 || heads_ <= 0) return;
  const Metrics m = fontSizes();
  painter.setFont(font());
  painter.setPen(theme_.muted);
  for (int head = 0; head < heads_; ++head) {
    const QRect cell = cellRect(0, head);
    painter.drawText(QRect(cell.left(), m.margin, cell.width(), m.column_header - m.pad),
                     Qt::AlignHCenter | Qt::AlignBottom, QStringLiteral("H%1").arg(head));
  }
  for (int layer = 0; layer < layers_; ++layer) {
    const QRect cell = cellRect(layer, 0);
    painter.drawText(QRect(m.margin, cell.top(), m.row_header - m.pad, cell.height()),
                     Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("L%1").arg(layer));
  }
  for (int layer = 0; layer < layers_; ++layer)
    for (int head = 0; head < heads_; ++head)
      if (cellRect(layer, head).intersects(event->rect())) paintCell(painter, layer, head);
}

void HeadStatsGrid::paintCell(QPainter& painter, int layer, int head) const {
  const Metrics m = fontSizes();
  const QRect cell = cellRect(layer, head);
  const QRect plot = plotRect(layer, head);
  const auto value = shownValue(layer, head);
  // The tint repeats the value as a heatmap, so a 12 x 12 grid can be scanned at a glance.
  const double level = value ? std::clamp((*value - y_min_) / (y_max_ - y_min_), 0.0, 1.0) : 0.0;
  const QColor fill =
      value ? mix(theme_.background, theme_.smoothed, 0.04 + 0.24 * level) : theme_.background;
  painter.setRenderHint(QPainter::Antialiasing, false);
  painter.fillRect(cell, fill);
  const bool picked = layer == picked_layer_ && head == picked_head_;
  painter.setPen(picked ? QPen(theme_.accent, 2) : QPen(theme_.grid, 1));
  painter.setBrush(Qt::NoBrush);
  painter.drawRect(picked ? cell.adjusted(1, 1, -1, -1) : cell.adjusted(0, 0, -1, -1));

  painter.setPen(value ? theme_.foreground : theme_.muted);
  painter.drawText(QRect(cell.left() + m.pad + 1, cell.top() + m.pad / 2,
                         cell.width() - 2 * m.pad - 2, m.text_height),
                   Qt::AlignLeft | Qt::AlignVCenter, valueText(layer, head));

  const std::vector<float>* values = store_->series(group_, metric_, layer, head);
  if (values)
    painter.drawPixmap(plot.topLeft() - QPoint(kCurveOverhang, kCurveOverhang),
                       curveImage(layer, head, plot, *values));

  painter.setRenderHint(QPainter::Antialiasing, true);
  const std::vector<std::int64_t>& steps = store_->steps();
  if (cursor_step_ >= 0 && !steps.empty() && cursor_step_ >= steps.front()) {
    const double x = std::min(stepToX(plot, cursor_step_), double(plot.right()));
    painter.setPen(QPen(theme_.withAlpha(theme_.foreground, 170), 1));
    painter.drawLine(QPointF(x, cell.top() + m.pad + m.text_height * 0.6),
                     QPointF(x, cell.bottom() - 1));
    const auto sample = store_->atOrBefore(group_, metric_, layer, head, cursor_step_);
    if (sample) {
      painter.setPen(QPen(theme_.background, 1));
      painter.setBrush(theme_.foreground);
      const double r = std::max(2.0, m.text_height / 7.0);
      painter.drawEllipse(QPointF(stepToX(plot, sample->step), valueToY(plot, sample->value)), r,
                          r);
    }
  }

  // Note markers: small triangles on the cell's bottom edge, pointing up at their step.
  const double size = std::max(3.0, m.text_height / 4.0);
  painter.setPen(QPen(theme_.background, 1));
  painter.setBrush(theme_.warning);
  for (const HeadKindNote& note : notes_) {
    if (note.group != group_ || note.layer != layer || note.head != head) continue;
    const double x = stepToX(plot, note.step);
    const double y = cell.bottom() - 1;
    const QPointF triangle[3] = {{x - size, y}, {x + size, y}, {x, y - 1.6 * size}};
    painter.drawPolygon(triangle, 3);
  }
}

const QPixmap& HeadStatsGrid::curveImage(int layer, int head, const QRect& plot,
                                         const std::vector<float>& values) const {
  const auto count = static_cast<std::size_t>(layers_ * heads_);
  if (curves_.size() != count) curves_.assign(count, QPixmap());
  QPixmap& image = curves_[static_cast<std::size_t>(layer * heads_ + head)];
  const QRect area =
      plot.adjusted(-kCurveOverhang, -kCurveOverhang, kCurveOverhang, kCurveOverhang);
  const qreal ratio = devicePixelRatioF();
  if (image.isNull() || image.devicePixelRatio() != ratio ||
      image.deviceIndependentSize().toSize() != area.size()) {
    image = QPixmap(area.size() * ratio);
    image.setDevicePixelRatio(ratio);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.translate(-area.topLeft());
    paintSparkline(painter, plot, values);
  }
  return image;
}

void HeadStatsGrid::paintSparkline(QPainter& painter, const QRect& plot,
                                   const std::vector<float>& values) const {
  // At most four points per pixel column (first, low, high, last): a run of thousands of probes
  // draws as fast as one of a hundred, and spikes stay visible.
  const std::vector<std::int64_t>& steps = store_->steps();
  QPolygonF line;
  int column = INT_MIN;
  double first = 0, low = 0, high = 0, last = 0, column_x = 0;
  const auto flush = [&] {
    if (column == INT_MIN) return;
    line << QPointF(column_x, valueToY(plot, first));
    if (low != high) {
      const bool rising = first <= last;
      line << QPointF(column_x, valueToY(plot, rising ? low : high))
           << QPointF(column_x, valueToY(plot, rising ? high : low));
    }
    if (last != first) line << QPointF(column_x, valueToY(plot, last));
  };
  for (std::size_t i = 0; i < values.size() && i < steps.size(); ++i) {
    const double v = values[i];
    if (std::isnan(v)) continue;
    const double x = stepToX(plot, steps[i]);
    const int col = static_cast<int>(std::floor(x));
    if (col != column) {
      flush();
      column = col;
      column_x = x;
      first = low = high = v;
    }
    low = std::min(low, v);
    high = std::max(high, v);
    last = v;
  }
  flush();
  if (line.isEmpty()) return;
  painter.setRenderHint(QPainter::Antialiasing, true);
  if (line.size() == 1) {
    painter.setPen(Qt::NoPen);
    painter.setBrush(theme_.smoothed);
    painter.drawEllipse(line.front(), 2.0, 2.0);
    return;
  }
  QPolygonF area = line;
  area << QPointF(line.back().x(), plot.bottom()) << QPointF(line.front().x(), plot.bottom());
  painter.setPen(Qt::NoPen);
  painter.setBrush(theme_.withAlpha(theme_.smoothed, theme_.dark ? 60 : 45));
  painter.drawPolygon(area);
  painter.setPen(QPen(theme_.smoothed, 1.0, Qt::SolidLine, Qt::FlatCap, Qt::BevelJoin));
  painter.setBrush(Qt::NoBrush);
  painter.drawPolyline(line);
}

}  // namespace ascope
