#include "widgets/images/pixel_image_view.h"

#include <QPainter>

#include <cmath>

namespace ascope {

PixelImageView::PixelImageView(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void PixelImageView::setImage(const QImage& image) {
  image_ = image;
  updateGeometry();
  update();
}

QRect PixelImageView::imageRect() const {
  if (image_.isNull()) return {};
  const QRect area = rect().adjusted(4, 4, -4, -4);
  double scale =
      std::min(area.width() / double(image_.width()), area.height() / double(image_.height()));
  if (scale >= 1.0) scale = std::floor(scale);  // whole multiples keep pixels square
  const QSize size(qRound(image_.width() * scale), qRound(image_.height() * scale));
  return QRect(area.center() - QPoint(size.width() / 2, size.height() / 2), size);
}

QSize PixelImageView::sizeHint() const {
  if (image_.isNull()) return {256, 256};
  const int factor = std::max(1, 256 / std::max(image_.width(), image_.height()));
  return image_.size() * factor + QSize(8, 8);
}

QSize PixelImageView::minimumSizeHint() const {
  return {64, 64};
}

void PixelImageView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  if (image_.isNull()) return;
  painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
  const QRect target = imageRect();
  painter.drawImage(target, image_);
  painter.setPen(QPen(palette().color(QPalette::Mid), 1));
  painter.drawRect(target.adjusted(-1, -1, 0, 0));  // just outside, never over image pixels
}

}  // namespace ascope
