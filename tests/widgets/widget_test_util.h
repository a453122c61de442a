#pragma once

// Helpers shared by the widget tests: bring a widget on screen (offscreen platform), flush queued
// replots, and inspect rendered pixels.

#include <QApplication>
#include <QColor>
#include <QDir>
#include <QImage>
#include <QRect>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

#include <cstdlib>

namespace ascope::test {

/// Where screenshots go: $ASCOPE_WIDGET_SHOTS when set (to look at them), else `temp`.
inline QString shotDir(const QTemporaryDir& temp) {
  const QString dir = qEnvironmentVariable("ASCOPE_WIDGET_SHOTS");
  if (dir.isEmpty()) return temp.path();
  QDir().mkpath(dir);
  return dir;
}

/// Shows the widget at `size` and lets queued layouts and replots run.
inline bool showAndSettle(QWidget* widget, QSize size = QSize(900, 600)) {
  widget->resize(size);
  widget->show();
  if (!QTest::qWaitForWindowExposed(widget)) return false;
  for (int i = 0; i < 4; ++i) {
    QCoreApplication::processEvents();
    QTest::qWait(20);
  }
  return true;
}

/// Lets queued replots (rpQueuedReplot) run.
inline void settle() {
  for (int i = 0; i < 3; ++i) {
    QCoreApplication::processEvents();
    QTest::qWait(10);
  }
}

inline bool isUniform(const QImage& image, const QRect& area) {
  const QRect r = area.intersected(image.rect());
  if (r.isEmpty()) return true;
  const QRgb first = image.pixel(r.topLeft());
  for (int y = r.top(); y <= r.bottom(); ++y)
    for (int x = r.left(); x <= r.right(); ++x)
      if (image.pixel(x, y) != first) return false;
  return true;
}

inline int colorDistance(QRgb a, const QColor& b) {
  return std::abs(qRed(a) - b.red()) + std::abs(qGreen(a) - b.green()) +
         std::abs(qBlue(a) - b.blue());
}

/// Number of pixels within `tolerance` (sum of channel differences) of `color`.
inline int countPixelsNear(const QImage& image, const QRect& area, const QColor& color,
                           int tolerance = 30) {
  const QRect r = area.intersected(image.rect());
  int count = 0;
  for (int y = r.top(); y <= r.bottom(); ++y)
    for (int x = r.left(); x <= r.right(); ++x)
      if (colorDistance(image.pixel(x, y), color) <= tolerance) ++count;
  return count;
}

/// Perceived brightness (Rec. 601 luma) of a pixel.
inline double luma(QRgb c) {
  return 0.299 * qRed(c) + 0.587 * qGreen(c) + 0.114 * qBlue(c);
}

}  // namespace ascope::test
