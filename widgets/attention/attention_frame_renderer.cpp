#include "widgets/attention/attention_frame_renderer.h"

#include "widgets/attention/attention_head_grid.h"
#include "widgets/attention/attention_heatmap_view.h"
#include "widgets/attention/cls_attention_overlay.h"

#include <QPainter>

#include <algorithm>

namespace ascope {
namespace {

/// The caption bar takes this share of the frame's height: readable on a projected slide, and
/// still most of the frame for the attention.
constexpr double kCaptionShare = 1.0 / 12.0;

template <typename Widget>
void giveLook(Widget& widget, const QFont& font, const QPalette& palette) {
  widget.setFont(font);
  widget.setPalette(palette);
}

}  // namespace

AttentionFrameRenderer::AttentionFrameRenderer(AttentionFrameView view, QSize size,
                                               const QFont& font, const QPalette& palette)
    : view_(view), size_(size), font_(font), palette_(palette) {}

AttentionFrameRenderer::~AttentionFrameRenderer() = default;

QImage AttentionFrameRenderer::render(const AttentionPlotGroup& group, int layer, int head,
                                      const PatchImageContext& image,
                                      const AttentionHeadDisplay& display, const QString& title,
                                      const QString& caption) {
  if (layer < 0 || layer >= group.layerCount()) return {};
  const int heads = group.headCount(layer);
  if (heads == 0 || (view_ != AttentionFrameView::LayerGrid && (head < 0 || head >= heads)))
    return {};
  const int bar = std::max(16, static_cast<int>(size_.height() * kCaptionShare));
  const QSize body(size_.width(), size_.height() - bar);
  const QImage drawn = renderBody(group, layer, head, image, display, title, body);
  if (drawn.isNull()) return {};

  QImage frame(size_, QImage::Format_RGB888);
  frame.fill(palette_.color(QPalette::Window));
  QPainter painter(&frame);
  painter.setRenderHint(QPainter::TextAntialiasing);
  painter.fillRect(QRect(0, 0, size_.width(), bar), palette_.color(QPalette::AlternateBase));
  QFont caption_font = font_;
  caption_font.setBold(true);
  const QRect caption_rect(bar / 3, 0, size_.width() - 2 * (bar / 3), bar);
  // The whole caption where a smaller font fits it (down to 60 %); else its middle elided, so
  // the step at the start and the run's name at the end both stay ("2026-11-…").
  const int largest = std::max(10, bar * 11 / 20);
  int pixels = largest;
  caption_font.setPixelSize(pixels);
  while (pixels > std::max(10, largest * 6 / 10) &&
         QFontMetrics(caption_font).horizontalAdvance(caption) > caption_rect.width()) {
    caption_font.setPixelSize(--pixels);
  }
  painter.setFont(caption_font);
  painter.setPen(palette_.color(QPalette::WindowText));
  painter.drawText(
      caption_rect, Qt::AlignVCenter | Qt::AlignLeft,
      QFontMetrics(caption_font).elidedText(caption, Qt::ElideMiddle, caption_rect.width()));
  painter.drawImage(QPoint(0, bar), drawn);
  painter.end();
  return frame;
}

QImage AttentionFrameRenderer::renderBody(const AttentionPlotGroup& group, int layer, int head,
                                          const PatchImageContext& image,
                                          const AttentionHeadDisplay& display, const QString& title,
                                          QSize body) {
  const std::vector<LabeledMatrix>& heads = group.layers[static_cast<std::size_t>(layer)];
  switch (view_) {
    case AttentionFrameView::LayerGrid: {
      if (!grid_) {
        grid_ = std::make_unique<AttentionHeadGrid>();
        giveLook(*grid_, font_, palette_);
      }
      grid_->setTitle(title);
      grid_->setHeads(heads, display, group.head_names);
      return grid_->toPixmap(body.width(), body.height(), 1.0).toImage();
    }
    case AttentionFrameView::Head: {
      if (!head_view_) {
        head_view_ = std::make_unique<AttentionHeatmapView>();
        giveLook(*head_view_, font_, palette_);
      }
      head_view_->setAttention(heads[static_cast<std::size_t>(head)], title, group.query_title,
                               group.key_title, display.forHead(head));
      return head_view_->toPixmap(body.width(), body.height(), 1.0).toImage();
    }
    case AttentionFrameView::ClsOverlay: {
      const std::vector<float> weights =
          ClsAttentionOverlay::clsPatchWeights(image, heads[static_cast<std::size_t>(head)]);
      if (weights.empty()) return {};
      if (!overlay_) {
        overlay_ = std::make_unique<ClsAttentionOverlay>();
        giveLook(*overlay_, font_, palette_);
      }
      overlay_->setData(image.image.toQImage(), weights, image.grid_rows, image.grid_cols, title);
      overlay_->resize(body);
      QImage drawn(body, QImage::Format_RGB888);
      drawn.fill(palette_.color(QPalette::Window));
      // The frame's background, not the widget's own: every view of a video looks alike.
      overlay_->render(&drawn, QPoint(), QRegion(), QWidget::DrawChildren);
      return drawn;
    }
  }
  return {};
}

}  // namespace ascope
