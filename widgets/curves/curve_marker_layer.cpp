#include "widgets/curves/curve_marker_layer.h"

#include "widgets/common/themed_plot.h"

#include <cmath>

namespace ascope {
namespace {

/// How near to a marker a click lands on it, and how far the mouse may move and still click.
constexpr double kHitPx = 6.0;
constexpr int kMarkerClickSlopPx = 4;

}  // namespace

CurveMarkerLayer::CurveMarkerLayer(ThemedPlot* plot, const CurveMarkerStyle& style)
    : QObject(plot), plot_(plot), style_(style) {
  connect(plot_, &ThemedPlot::themeChanged, this, &CurveMarkerLayer::applyTheme);
  connect(plot_, &ThemedPlot::laidOut, this, &CurveMarkerLayer::keepLabelsInside);
  if (style_.clickable) {
    connect(plot_, &QCustomPlot::mousePress, this,
            [this](QMouseEvent* event) { press_pos_ = event->pos(); });
    connect(plot_, &QCustomPlot::mouseRelease, this, &CurveMarkerLayer::onRelease);
  }
}

void CurveMarkerLayer::setMarkers(const QVector<CurveMarker>& markers) {
  removeItems();
  markers_ = markers;
  for (const CurveMarker& marker : markers_) draw(marker);
  applyTheme(plot_->theme());
}

void CurveMarkerLayer::add(double step, const QString& text) {
  markers_.push_back({step, text});
  draw(markers_.back());
  applyTheme(plot_->theme());
}

void CurveMarkerLayer::clear() {
  if (markers_.isEmpty()) return;
  removeItems();
  markers_.clear();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void CurveMarkerLayer::draw(const CurveMarker& marker) {
  auto* line = new QCPItemStraightLine(plot_);
  line->setSelectable(false);
  for (QCPItemPosition* end : {line->point1, line->point2}) {
    end->setTypeX(QCPItemPosition::ptPlotCoords);
    end->setTypeY(QCPItemPosition::ptAxisRectRatio);
  }
  line->point1->setCoords(marker.step, 0.0);
  line->point2->setCoords(marker.step, 1.0);
  auto* label = new QCPItemText(plot_);
  label->setSelectable(false);
  label->position->setTypeX(QCPItemPosition::ptPlotCoords);
  label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
  label->position->setCoords(marker.step,
                             style_.label_y + style_.label_stagger * (lines_.size() % 3));
  label->setPositionAlignment(style_.label_alignment);
  label->setPadding(QMargins(3, 1, 3, 1));
  label->setText(labelText(marker.text));
  label->setClipToAxisRect(true);
  lines_.push_back(line);
  labels_.push_back(label);
}

void CurveMarkerLayer::removeItems() {
  for (QCPItemStraightLine* line : lines_) plot_->removeItem(line);
  for (QCPItemText* label : labels_) plot_->removeItem(label);
  lines_.clear();
  labels_.clear();
}

QString CurveMarkerLayer::labelText(const QString& text) const {
  if (style_.label_chars <= 0) return style_.label_prefix + text;
  const QString line = text.section(QLatin1Char('\n'), 0, 0).simplified();
  return style_.label_prefix + (line.size() > style_.label_chars
                                    ? line.left(style_.label_chars - 1) + QStringLiteral("…")
                                    : line);
}

int CurveMarkerLayer::markerAt(int x) const {
  int best = -1;
  double best_distance = kHitPx;
  for (int i = 0; i < markers_.size(); ++i) {
    const double distance = std::abs(plot_->xAxis->coordToPixel(markers_[i].step) - x);
    if (distance <= best_distance) {
      best = i;
      best_distance = distance;
    }
  }
  return best;
}

void CurveMarkerLayer::applyTheme(const PlotTheme& theme) {
  const QColor& colour = theme.*style_.colour;
  const QPen pen(colour, 1.4, style_.line_style);
  for (QCPItemStraightLine* line : lines_) line->setPen(pen);
  for (QCPItemText* label : labels_) {
    label->setColor(theme.foreground);
    label->setFont(theme.font);
    label->setBrush(QBrush(theme.withAlpha(theme.background, style_.label_alpha)));
    label->setPen(QPen(colour));
  }
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void CurveMarkerLayer::keepLabelsInside() {
  const QRect area = plot_->axisRect()->rect();
  const Qt::Alignment vertical = style_.label_alignment & Qt::AlignVertical_Mask;
  for (int i = 0; i < labels_.size() && i < markers_.size(); ++i) {
    QCPItemText* label = labels_[i];
    const QMargins pad = label->padding();
    const int width =
        QFontMetrics(label->font()).horizontalAdvance(label->text()) + pad.left() + pad.right() + 2;
    const double x = plot_->xAxis->coordToPixel(markers_[i].step);
    const bool room_right = x + width <= area.right();
    const bool room_left = x - width >= area.left();
    const Qt::Alignment side = room_right || !room_left
                                   ? (style_.label_alignment & Qt::AlignHorizontal_Mask)
                                   : Qt::Alignment(Qt::AlignRight);
    if (label->positionAlignment() != (side | vertical))
      label->setPositionAlignment(side | vertical);
  }
}

void CurveMarkerLayer::onRelease(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  if ((event->pos() - press_pos_).manhattanLength() > kMarkerClickSlopPx) return;
  const int i = markerAt(event->pos().x());
  if (i >= 0) Q_EMIT markerClicked(markers_[i].step);
}

}  // namespace ascope
