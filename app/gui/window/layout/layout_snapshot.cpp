#include "app/gui/window/layout/layout_snapshot.h"

#include <QEvent>
#include <QMainWindow>
#include <QPointer>
#include <QTimer>

namespace ascope {
namespace {

/// Restores the docks once more when the window reaches `size`, then deletes itself; gives up
/// after a second (a window manager that keeps the window at another size).
class RestoreAtSize : public QObject {
 public:
  RestoreAtSize(QMainWindow* window, QByteArray docks, QSize size)
      : QObject(window), window_(window), docks_(std::move(docks)), size_(size) {
    window_->installEventFilter(this);
    QTimer::singleShot(1000, this, [this] { deleteLater(); });
  }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (watched == window_ && event->type() == QEvent::Resize && window_->size() == size_) {
      window_->removeEventFilter(this);
      // After the resize has been laid out: the dock areas have their new room by then.
      QTimer::singleShot(0, window_, [window = QPointer<QMainWindow>(window_), docks = docks_] {
        if (window) window->restoreState(docks, LayoutSnapshot::kVersion);
      });
      deleteLater();
    }
    return QObject::eventFilter(watched, event);
  }

 private:
  QMainWindow* window_;
  QByteArray docks_;
  QSize size_;
};

}  // namespace

LayoutSnapshot LayoutSnapshot::take(const QMainWindow* window) {
  return {window->saveState(kVersion), window->saveGeometry(), window->windowState(),
          window->size()};
}

void LayoutSnapshot::restore(QMainWindow* window) const {
  if (isEmpty()) return;
  window->setWindowState(window_state);
  // Leaving full screen gives the window whatever size the platform kept, which a zoomed
  // minimum size may have changed: the size it had is part of the layout.
  if (!(window_state & (Qt::WindowFullScreen | Qt::WindowMaximized))) window->resize(size);
  window->restoreState(docks, kVersion);
  if (window->size() != size) new RestoreAtSize(window, docks, size);
}

}  // namespace ascope
