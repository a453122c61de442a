#include "app/gui/window/lecture/font_zoom.h"

#include <QApplication>
#include <QVariant>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace ascope {
namespace {

// Dynamic properties on the pinned widgets: their unzoomed point (or pixel) size.
const char* const kPointSize = "ascopeUnzoomedPointSize";
const char* const kPixelSize = "ascopeUnzoomedPixelSize";

bool pinsItsSize(const QWidget* widget) {
  return widget->testAttribute(Qt::WA_SetFont) &&
         (widget->font().resolveMask() & QFont::SizeResolved) != 0;
}

QFont scaled(QFont font, double point_size, int pixel_size, double factor) {
  if (point_size > 0) {
    font.setPointSizeF(point_size * factor);
  } else if (pixel_size > 0) {
    font.setPixelSize(std::max(1, static_cast<int>(std::lround(pixel_size * factor))));
  }
  return font;
}

}  // namespace

FontZoom::FontZoom(QWidget* root) : QObject(root), root_(root) {}

double FontZoom::factorFor(int steps) {
  return std::pow(1.2, steps);
}

void FontZoom::setSteps(int steps) {
  steps = std::clamp(steps, kMinSteps, kMaxSteps);
  if (steps == steps_) return;
  Q_EMIT aboutToZoom(steps_);
  // Only at the unzoomed size are pinned sizes the widgets' own; later ones may derive from an
  // already zoomed font.
  if (steps_ == 0) rememberPinnedSizes();
  steps_ = steps;
  apply();
  Q_EMIT zoomChanged(steps_);
}

void FontZoom::rememberPinnedSizes() {
  for (QWidget* widget : root_->findChildren<QWidget*>()) {
    if (!pinsItsSize(widget) || widget->property(kPointSize).isValid() ||
        widget->property(kPixelSize).isValid())
      continue;
    const QFont font = widget->font();
    if (font.pointSizeF() > 0) {
      widget->setProperty(kPointSize, font.pointSizeF());
    } else {
      widget->setProperty(kPixelSize, font.pixelSize());
    }
  }
}

void FontZoom::apply() {
  const double f = factor();
  if (steps_ == 0) {
    root_->setFont(QFont());  // inherit the application font again, as before any zoom
  } else {
    const QFont base = QApplication::font(root_);
    root_->setFont(scaled(base, base.pointSizeF(), base.pixelSize(), f));
  }
  for (QWidget* widget : root_->findChildren<QWidget*>()) {
    const QVariant point = widget->property(kPointSize);
    const QVariant pixel = widget->property(kPixelSize);
    if (!point.isValid() && !pixel.isValid()) continue;
    widget->setFont(scaled(widget->font(), point.toDouble(), pixel.toInt(), f));
  }
}

}  // namespace ascope
