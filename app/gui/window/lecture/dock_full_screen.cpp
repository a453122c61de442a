#include "app/gui/window/lecture/dock_full_screen.h"

#include <QApplication>
#include <QDockWidget>
#include <QKeyEvent>
#include <QMainWindow>
#include <QMouseEvent>

#include "app/gui/window/layout/dock_layout.h"

namespace ascope {

DockFullScreen::DockFullScreen(QMainWindow* window, DockLayout* layout)
    : QObject(window), window_(window), layout_(layout), docks_(layout->docks()) {
  // Double-clicking a title would float the dock; here it shows the dock alone instead (a floating
  // dock keeps Qt's double-click, which docks it again).
  for (QDockWidget* dock : docks_) dock->installEventFilter(this);
}

void DockFullScreen::show(QDockWidget* dock) {
  if (dock == nullptr || !docks_.contains(dock)) return;
  if (current_ != nullptr) leave();
  before_ = LayoutSnapshot::take(window_);
  layout_->hold(this, before_);
  current_ = dock;
  dock->setFloating(false);
  for (QDockWidget* d : docks_) {
    if (d != dock) d->hide();
  }
  dock->show();
  dock->raise();
  if (full_screen_) window_->setWindowState(before_.window_state | Qt::WindowFullScreen);
  // Esc belongs to the timeline while no dock is shown alone; meanwhile it comes here first.
  qApp->installEventFilter(this);
  Q_EMIT currentChanged(dock);
}

void DockFullScreen::leave() {
  if (current_ == nullptr) return;
  current_ = nullptr;
  qApp->removeEventFilter(this);
  before_.restore(window_);
  layout_->release(this);
  Q_EMIT currentChanged(nullptr);
}

QDockWidget* DockFullScreen::focusedDock() const {
  const QWidget* focus = QApplication::focusWidget();
  for (QDockWidget* dock : docks_) {
    if (focus != nullptr && dock->isVisible() && dock->isAncestorOf(focus)) return dock;
  }
  for (QDockWidget* dock : docks_) {
    if (dock->objectName() == QLatin1String("attentionDock")) return dock;
  }
  return docks_.isEmpty() ? nullptr : docks_.front();
}

void DockFullScreen::toggleFocused() {
  if (current_ != nullptr) {
    leave();
  } else {
    show(focusedDock());
  }
}

bool DockFullScreen::onTitleBar(const QDockWidget* dock, const QPoint& pos) {
  const QWidget* content = dock->widget();
  const int title_bottom = content != nullptr ? content->geometry().top() : 0;
  return pos.y() >= 0 && pos.y() < title_bottom;
}

bool DockFullScreen::eventFilter(QObject* watched, QEvent* event) {
  const QEvent::Type type = event->type();
  if (type == QEvent::MouseButtonDblClick) {
    auto* dock = qobject_cast<QDockWidget*>(watched);
    auto* mouse = static_cast<QMouseEvent*>(event);
    if (dock != nullptr && docks_.contains(dock) && !dock->isFloating() &&
        mouse->button() == Qt::LeftButton && onTitleBar(dock, mouse->position().toPoint())) {
      if (current_ == dock) {
        leave();
      } else {
        show(dock);
      }
      return true;
    }
    return false;
  }
  if (current_ == nullptr || (type != QEvent::ShortcutOverride && type != QEvent::KeyPress))
    return false;
  auto* key = static_cast<QKeyEvent*>(event);
  if (key->key() != Qt::Key_Escape || key->modifiers() != Qt::NoModifier) return false;
  // An open popup or dialog takes its own Esc; so does any other window.
  const auto* target = qobject_cast<QWidget*>(watched);
  if (target == nullptr || target->window() != window_ ||
      QApplication::activePopupWidget() != nullptr || QApplication::activeModalWidget() != nullptr)
    return false;
  // Accepting the override keeps the timeline's Esc shortcut from firing; the key press follows.
  if (type == QEvent::ShortcutOverride) {
    event->accept();
    return true;
  }
  leave();
  return true;
}

}  // namespace ascope
