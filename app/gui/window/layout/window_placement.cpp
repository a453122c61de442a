#include "app/gui/window/layout/window_placement.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

#include <algorithm>

namespace ascope {

QRect fitIntoScreen(const QRect& client, const QRect& available, const QMargins& frame) {
  const QRect room = available.marginsRemoved(frame);
  if (room.isEmpty()) return client;
  const int width = std::min(client.width(), room.width());
  const int height = std::min(client.height(), room.height());
  const int x = std::clamp(client.x(), room.left(), room.left() + room.width() - width);
  const int y = std::clamp(client.y(), room.top(), room.top() + room.height() - height);
  return QRect(x, y, width, height);
}

void fitWindowIntoScreen(QWidget* window) {
  if (window->windowState() & (Qt::WindowMaximized | Qt::WindowFullScreen)) return;
  const QRect client = window->geometry();
  QScreen* screen = QGuiApplication::screenAt(client.center());
  if (screen == nullptr) screen = QGuiApplication::primaryScreen();
  if (screen == nullptr) return;
  QMargins frame = kAssumedFrame;
  if (window->isVisible()) {
    const QRect outer = window->frameGeometry();
    frame = QMargins(client.left() - outer.left(), client.top() - outer.top(),
                     outer.right() - client.right(), outer.bottom() - client.bottom());
  }
  const QRect fitted = fitIntoScreen(client, screen->availableGeometry(), frame);
  if (fitted != client) window->setGeometry(fitted);
}

}  // namespace ascope
