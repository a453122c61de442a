#include "widgets/attention/cls_attention_overlay.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ascope {

ClsAttentionOverlay::ClsAttentionOverlay(QWidget* parent) : QWidget(parent) {
  // A caption line over an image of 64 px or more: small enough to share a 1280 × 720 window's
  // Attention dock with an enlarged head that keeps its minimum (the head is what is taught).
  setMinimumSize(100, 96);
}

void ClsAttentionOverlay::setData(const QImage& image, const std::vector<float>& patch_weights,
                                  int grid_rows, int grid_cols, const QString& caption) {
  image_ = image;
  weights_ = patch_weights;
  grid_rows_ = grid_rows;
  grid_cols_ = grid_cols;
  caption_ = caption;
  if (static_cast<int>(weights_.size()) != grid_rows_ * grid_cols_) weights_.clear();
  update();
}

std::vector<float> ClsAttentionOverlay::clsPatchWeights(const PatchImageContext& image,
                                                        const LabeledMatrix& head) {
  const int patches = image.grid_rows * image.grid_cols;
  if (!image.isValid() || !image.has_cls_token || !head.isValid() || head.cols != patches + 1)
    return {};
  return std::vector<float>(head.values.begin() + 1, head.values.begin() + head.cols);
}

void ClsAttentionOverlay::clear() {
  image_ = QImage();
  weights_.clear();
  update();
}

void ClsAttentionOverlay::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const QFontMetrics fm(font());
  if (image_.isNull()) return;
  painter.setPen(palette().color(QPalette::WindowText));
  const QRect caption_rect(0, 2, width(), fm.height() + 2);
  painter.drawText(caption_rect, Qt::AlignCenter, fm.elidedText(caption_, Qt::ElideRight, width()));

  const QRect area = rect().adjusted(6, caption_rect.bottom() + 4, -6, -6);
  const double scale =
      std::min(area.width() / double(image_.width()), area.height() / double(image_.height()));
  const QSizeF size(image_.width() * scale, image_.height() * scale);
  const QRectF target(area.left() + (area.width() - size.width()) / 2.0,
                      area.top() + (area.height() - size.height()) / 2.0, size.width(),
                      size.height());
  painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
  painter.drawImage(target, image_);
  if (weights_.empty()) return;

  // Like the attention maps in the ViT paper: patches the CLS token ignores are veiled, the ones
  // it attends to stay bright, so the picture itself shows where the classifier looks.
  const float max_weight = *std::max_element(weights_.begin(), weights_.end());
  const double cw = target.width() / grid_cols_;
  const double ch = target.height() / grid_rows_;
  for (int r = 0; r < grid_rows_; ++r) {
    for (int c = 0; c < grid_cols_; ++c) {
      const float w = weights_[static_cast<size_t>(r) * grid_cols_ + c];
      const double level = max_weight > 0 ? std::clamp(w / max_weight, 0.0f, 1.0f) : 0.0;
      QColor veil(0, 0, 0);
      veil.setAlphaF(static_cast<float>(0.8 * (1.0 - std::sqrt(level))));
      painter.fillRect(QRectF(target.left() + c * cw, target.top() + r * ch, cw, ch), veil);
    }
  }
  painter.setPen(QPen(palette().color(QPalette::Mid), 1));
  painter.drawRect(target);
}

}  // namespace ascope
