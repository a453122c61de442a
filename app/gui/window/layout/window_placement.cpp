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

QScreen* screenOf(const QWidget* window) {
  QScreen* screen = QGuiApplication::screenAt(window->geometry().center());
  return screen != nullptr ? screen : QGuiApplication::primaryScreen();
}

QMargins frameOf(const QWidget* window) {
  if (!window->isVisible()) return kAssumedFrame;
  const QRect client = window->geometry();
  const QRect outer = window->frameGeometry();
  const QMargins frame(client.left() - outer.left(), client.top() - outer.top(),
                       outer.right() - client.right(), outer.bottom() - client.bottom());
  // Leaving full screen, the client is back before its title bar (at 0,0 on openbox).
  return frame.isNull() ? kAssumedFrame : frame;
}

void fitWindowIntoScreen(QWidget* window) {
  if (window->windowState() & (Qt::WindowMaximized | Qt::WindowFullScreen)) return;
  const QRect client = window->geometry();
  const QScreen* screen = screenOf(window);
  if (screen == nullptr) return;
  const QRect fitted = fitIntoScreen(client, screen->availableGeometry(), frameOf(window));
  if (fitted != client) window->setGeometry(fitted);
}

}  // namespace ascope
