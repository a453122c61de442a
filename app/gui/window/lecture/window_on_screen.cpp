#include "app/gui/window/lecture/window_on_screen.h"

#include <QCoreApplication>
#include <QEvent>
#include <QScreen>
#include <QTimer>
#include <QWidget>

#include "app/gui/window/layout/window_placement.h"
#include "app/gui/window/lecture/font_zoom.h"

namespace ascope {
namespace {

/// The window manager frames a window some time after it leaves full screen; until then the
/// frame measures zero.
constexpr int kAfterStateChangeMs = 150;

}  // namespace

WindowOnScreen::WindowOnScreen(QWidget* window, FontZoom* zoom)
    : QObject(window), window_(window), zoom_(zoom), steps_(zoom->steps()) {
  connect(zoom_, &FontZoom::zoomChanged, this, &WindowOnScreen::zoomed);
  window_->installEventFilter(this);
}

bool WindowOnScreen::minimumFits(const QWidget* window) {
  const QScreen* screen = screenOf(window);
  if (screen == nullptr) return true;
  const QSize room = screen->availableGeometry().marginsRemoved(frameOf(window)).size();
  const QSize need = window->minimumSizeHint().expandedTo(window->minimumSize());
  return need.width() <= room.width() && need.height() <= room.height();
}

bool WindowOnScreen::eventFilter(QObject* watched, QEvent* event) {
  if (watched == window_ && event->type() == QEvent::WindowStateChange &&
      !(window_->windowState() &
        (Qt::WindowFullScreen | Qt::WindowMaximized | Qt::WindowMinimized))) {
    checkSoon(kAfterStateChangeMs);
  }
  return QObject::eventFilter(watched, event);
}

void WindowOnScreen::zoomed(int steps) {
  zoomed_in_ = retreating_ || steps > steps_;
  steps_ = steps;
  checkSoon(0);
}

void WindowOnScreen::checkSoon(int delay_ms) {
  if (pending_) return;
  pending_ = true;
  QTimer::singleShot(delay_ms, this, [this] {
    pending_ = false;
    check();
  });
}

void WindowOnScreen::check() {
  // The minimum sizes of the new fonts: layouts still waiting to be recomputed would measure the
  // previous zoom's (and a step back would take back one step too many).
  QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
  if (zoomed_in_ && zoom_->steps() > 0 && !minimumFits(window_)) {
    // Stepping back zooms again, which checks again: until the window fits or the zoom is 0.
    retreating_ = true;
    zoom_->setSteps(zoom_->steps() - 1);
    return;
  }
  zoomed_in_ = false;
  if (retreating_) {
    retreating_ = false;
    // In the screen's own pixels, as its owner knows it: "1920 × 1080 at 150 %".
    QString size;
    if (const QScreen* screen = screenOf(window_)) {
      const double ratio = screen->devicePixelRatio();
      const QSize pixels = screen->size() * ratio;
      size = QStringLiteral("%1 × %2 ").arg(pixels.width()).arg(pixels.height());
      if (ratio != 1.0) size += tr("at %1 % ").arg(qRound(ratio * 100));
    }
    Q_EMIT message(tr("Zoom %1 is the largest this %2screen holds: a larger font would push the "
                      "window past its edges")
                       .arg(zoom_->steps() > 0 ? QStringLiteral("+%1").arg(zoom_->steps())
                                               : QString::number(zoom_->steps()))
                       .arg(size));
  }
  fitWindowIntoScreen(window_);
}

}  // namespace ascope
