#pragma once

// Helpers shared by the widget tests: bring a widget on screen (offscreen platform), flush queued
// replots, and inspect rendered pixels.

#include <QApplication>
#include <QColor>
#include <QDir>
#include <QImage>
#include <QPalette>
#include <QRect>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

#include <cstdlib>

namespace ascope::test {

/// A dark palette like the app's (app/gui/window/dark_palette.cpp), for checking that a panel
/// takes its colours from the palette.
inline QPalette darkPalette() {
  QPalette p;
  p.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x30));
  p.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
  p.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
  p.setColor(QPalette::AlternateBase, QColor(0x2b, 0x2d, 0x30));
  p.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
  p.setColor(QPalette::Button, QColor(0x3c, 0x3f, 0x41));
  p.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
  p.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xe6));
  p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
  return p;
}

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
