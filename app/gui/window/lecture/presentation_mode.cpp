#include "app/gui/window/lecture/presentation_mode.h"

#include <QEvent>
#include <QMainWindow>
#include <QTimer>

#include "app/gui/window/layout/dock_layout.h"
#include "app/gui/window/layout/workspace.h"

namespace ascope {

PresentationMode::PresentationMode(QMainWindow* window, DockLayout* docks)
    : QObject(window), window_(window), docks_(docks) {}

void PresentationMode::enter() {
  if (active_) return;
  before_ = LayoutSnapshot::take(window_);
  docks_->hold(this, before_);
  active_ = true;
  if (full_screen_) window_->setWindowState(before_.window_state | Qt::WindowFullScreen);
  arrange();
  // The window reaches its full-screen size later (the window manager decides when); the
  // columns are shared out again at every resize while presenting.
  window_->installEventFilter(this);
  Q_EMIT activeChanged(true);
}

void PresentationMode::leave() {
  if (!active_) return;
  active_ = false;
  window_->removeEventFilter(this);
  before_.restore(window_);
  docks_->release(this);
  Q_EMIT activeChanged(false);
}

bool PresentationMode::eventFilter(QObject* watched, QEvent* event) {
  if (watched == window_ && event->type() == QEvent::Resize && active_ && !resize_pending_) {
    resize_pending_ = true;
    QTimer::singleShot(0, this, [this] {
      resize_pending_ = false;
      if (active_) docks_->shareOut(Workspace::present(window_->size()));
    });
  }
  return QObject::eventFilter(watched, event);
}

void PresentationMode::arrange() {
  docks_->arrange(Workspace::present(window_->size()));
}

}  // namespace ascope
