#include "widgets/attention/attention_model_view.h"

#include "widgets/attention/attention_head_display.h"
#include "widgets/common/plot_theme.h"

#include <QEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace ascope {
namespace {

constexpr int kModelViewMargin = 6;
constexpr int kMinCell = 8;

int gapFor(int cell) {
  return cell >= 40 ? 6 : 2;
}

}  // namespace

AttentionModelView::AttentionModelView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("attentionModelView"));
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void AttentionModelView::setGroup(const AttentionPlotGroup& group) {
  scaled_.clear();
  heads_ = 0;
  selected_layer_ = selected_head_ = -1;
  group_name_ = group.name;
  tokens_.clear();
  // Each head on its own scale, as AttentionColorScale::PerHead draws it in the head grid.
  const AttentionHeadDisplay display(AttentionColorScale::PerHead, 1.0, group.causal, {});
  for (const std::vector<LabeledMatrix>& layer : group.layers) {
    std::vector<LabeledMatrix> heads;
    for (const LabeledMatrix& head : layer) {
      if (!head.isValid()) {
        heads.emplace_back();
        continue;
      }
      if (tokens_.isEmpty()) tokens_ = head.col_labels;
      const int side = std::max(head.rows, head.cols);
      const int pool = (side + kMaxThumbnailCells - 1) / kMaxThumbnailCells;
      LabeledMatrix scaled = display.displayMatrix(head, pool);
      const double top = display.colorRange(head).upper;
      if (top > 0) {
        for (float& v : scaled.values) v = static_cast<float>(v / top);
      }
      scaled.row_labels.clear();
      scaled.col_labels.clear();
      heads.push_back(std::move(scaled));
    }
    heads_ = std::max(heads_, static_cast<int>(heads.size()));
    scaled_.push_back(std::move(heads));
  }
  render();
  updateGeometry();
  update();
}

void AttentionModelView::clear() {
  setGroup(AttentionPlotGroup{});
}

QImage AttentionModelView::thumbnail(int layer, int head) const {
  if (layer < 0 || layer >= layerCount()) return {};
  const auto& images = thumbnails_[static_cast<std::size_t>(layer)];
  if (head < 0 || head >= static_cast<int>(images.size())) return {};
  return images[static_cast<std::size_t>(head)];
}

void AttentionModelView::render() {
  const PlotTheme theme = PlotTheme::fromPalette(palette(), font());
  QCPColorGradient gradient = AttentionHeadDisplay::gradient(theme);
  const QRgb masked = AttentionHeadDisplay::maskedColor(theme).rgb();
  const QCPRange unit(0.0, 1.0);
  thumbnails_.clear();
  for (const std::vector<LabeledMatrix>& layer : scaled_) {
    std::vector<QImage> images;
    for (const LabeledMatrix& head : layer) {
      if (!head.isValid()) {
        images.emplace_back();
        continue;
      }
      QImage image(head.cols, head.rows, QImage::Format_RGB32);
      for (int r = 0; r < head.rows; ++r) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(r));
        for (int c = 0; c < head.cols; ++c) {
          const float v = head.at(r, c);
          line[c] = std::isnan(v) ? masked : gradient.color(v, unit);
        }
      }
      images.push_back(std::move(image));
    }
    thumbnails_.push_back(std::move(images));
  }
}

QRect AttentionModelView::gridArea() const {
  const QFontMetrics fm(font());
  const int left = fm.horizontalAdvance(tr("layer %1").arg(std::max(0, layerCount() - 1))) + 10;
  const int top = fm.height() + 6;
  return rect().adjusted(kModelViewMargin + left, kModelViewMargin + top, -kModelViewMargin,
                         -kModelViewMargin);
}

int AttentionModelView::cellSide() const {
  if (layerCount() == 0 || heads_ == 0) return 0;
  const QRect area = gridArea();
  // Try the large gap first; small cells get the narrow one.
  for (int gap : {gapFor(40), gapFor(0)}) {
    const int by_width = (area.width() - (heads_ - 1) * gap) / heads_;
    const int by_height = (area.height() - (layerCount() - 1) * gap) / layerCount();
    const int side = std::min(by_width, by_height);
    if (gapFor(side) == gap) return std::max(kMinCell, side);
  }
  return kMinCell;
}

QRect AttentionModelView::thumbnailRect(int layer, int head) const {
  if (thumbnail(layer, head).isNull()) return {};
  const int side = cellSide();
  const int gap = gapFor(side);
  const QRect area = gridArea();
  // Centred along the width: wide windows keep the thumbnails square.
  const int width = heads_ * side + (heads_ - 1) * gap;
  const int left = area.left() + std::max(0, (area.width() - width) / 2);
  return {left + head * (side + gap), area.top() + layer * (side + gap), side, side};
}

bool AttentionModelView::headAt(const QPoint& pos, int* layer, int* head) const {
  for (int l = 0; l < layerCount(); ++l) {
    for (int h = 0; h < heads_; ++h) {
      if (!thumbnailRect(l, h).contains(pos)) continue;
      *layer = l;
      *head = h;
      return true;
    }
  }
  return false;
}

void AttentionModelView::setSelectedHead(int layer, int head) {
  selected_layer_ = layer;
  selected_head_ = head;
  update();
}

QSize AttentionModelView::sizeHint() const {
  return {640, 480};
}

QSize AttentionModelView::minimumSizeHint() const {
  const QFontMetrics fm(font());
  const int columns = std::max(1, heads_), rows = std::max(1, layerCount());
  return {
      2 * kModelViewMargin + fm.horizontalAdvance(tr("layer 00")) + 10 + columns * (kMinCell + 2),
      2 * kModelViewMargin + fm.height() + 6 + rows * (kMinCell + 2)};
}

void AttentionModelView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const PlotTheme theme = PlotTheme::fromPalette(palette(), font());
  painter.fillRect(rect(), theme.background);
  if (layerCount() == 0) {
    painter.setPen(theme.muted);
    painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                     tr("Every layer and head of the model appears here once it has read an "
                        "input."));
    return;
  }
  const QFontMetrics fm(font());
  painter.setPen(theme.foreground);
  const int side = cellSide();
  for (int h = 0; h < heads_; ++h) {
    const QRect cell = thumbnailRect(0, h);
    const QString name = fm.horizontalAdvance(tr("head %1").arg(h)) <= side + 4
                             ? tr("head %1").arg(h)
                             : QString::number(h);
    painter.drawText(
        QRect(cell.left() - 8, cell.top() - fm.height() - 4, cell.width() + 16, fm.height()),
        Qt::AlignHCenter | Qt::AlignBottom, name);
  }
  for (int l = 0; l < layerCount(); ++l) {
    const QRect cell = thumbnailRect(l, 0);
    painter.drawText(
        QRect(kModelViewMargin, cell.top(), cell.left() - kModelViewMargin - 8, cell.height()),
        Qt::AlignRight | Qt::AlignVCenter, tr("layer %1").arg(l));
  }
  // Crisp cells: a thumbnail is a picture of weights, not a photograph.
  painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
  for (int l = 0; l < layerCount(); ++l) {
    for (int h = 0; h < heads_; ++h) {
      const QImage image = thumbnail(l, h);
      if (!image.isNull()) painter.drawImage(thumbnailRect(l, h), image);
    }
  }
  if (!thumbnail(selected_layer_, selected_head_).isNull()) {
    painter.setPen(QPen(theme.accent, 3));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(thumbnailRect(selected_layer_, selected_head_).adjusted(-2, -2, 1, 1));
  }
}

void AttentionModelView::mousePressEvent(QMouseEvent* event) {
  int layer = -1, head = -1;
  if (event->button() != Qt::LeftButton || !headAt(event->position().toPoint(), &layer, &head)) {
    QWidget::mousePressEvent(event);
    return;
  }
  setSelectedHead(layer, head);
  Q_EMIT headClicked(layer, head);
}

bool AttentionModelView::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    int layer = -1, head = -1;
    if (headAt(help->pos(), &layer, &head)) {
      QToolTip::showText(help->globalPos(),
                         tr("layer %1 · head %2 · click to enlarge").arg(layer).arg(head), this);
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QWidget::event(event);
}

void AttentionModelView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange) {
    render();
    update();
  }
  QWidget::changeEvent(event);
}

}  // namespace ascope
