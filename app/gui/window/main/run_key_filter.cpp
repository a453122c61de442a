#include "app/gui/window/main/run_key_filter.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextEdit>

namespace ascope {

RunKeyFilter::RunKeyFilter(QWidget* window) : QObject(window), window_(window) {
  qApp->installEventFilter(this);
}

bool RunKeyFilter::isTextField(const QWidget* widget) {
  if (widget == nullptr) return false;
  if (const auto* line = qobject_cast<const QLineEdit*>(widget)) return !line->isReadOnly();
  if (const auto* spin = qobject_cast<const QAbstractSpinBox*>(widget)) return !spin->isReadOnly();
  if (const auto* combo = qobject_cast<const QComboBox*>(widget)) return combo->isEditable();
  if (const auto* text = qobject_cast<const QTextEdit*>(widget)) return !text->isReadOnly();
  if (const auto* plain = qobject_cast<const QPlainTextEdit*>(widget)) return !plain->isReadOnly();
  return false;
}

bool RunKeyFilter::belongsToWindow(const QWidget* widget) const {
  if (widget == nullptr) return false;
  const QWidget* top = widget->window();
  if (top == window_) return true;
  // A floating dock is a window of its own, still the main window's child.
  return qobject_cast<const QDockWidget*>(top) != nullptr && window_->isAncestorOf(top);
}

void RunKeyFilter::leaveTextField() {
  QWidget* focus = QApplication::focusWidget();
  if (isTextField(focus) && belongsToWindow(focus)) focus->clearFocus();
}

bool RunKeyFilter::eventFilter(QObject* watched, QEvent* event) {
  const QEvent::Type type = event->type();
  if (type != QEvent::KeyPress && type != QEvent::ShortcutOverride) return false;
  auto* widget = qobject_cast<QWidget*>(watched);
  // The press is sent to the focus widget first, then to its parents: judged once, there.
  if (widget == nullptr || !belongsToWindow(widget)) return false;
  if (QApplication::focusWidget() != nullptr && widget != QApplication::focusWidget()) return false;
  const auto* key = static_cast<QKeyEvent*>(event);
  if (key->modifiers() != Qt::NoModifier && key->modifiers() != Qt::KeypadModifier) return false;
  if (isTextField(widget)) {
    if (key->key() != Qt::Key_Escape) return false;  // the field keeps its keys
    // Esc leaves the field (not the timeline's "Back to the run"): accepting the override keeps
    // that shortcut from firing, and the press that follows takes the focus out.
    event->accept();
    if (type == QEvent::KeyPress) widget->clearFocus();
    return true;
  }
  if (type != QEvent::KeyPress) return false;
  // An enabled Pause took Space as its shortcut before the press was sent; a press that comes
  // here would click the focused button (Start) or toggle a box: nothing but Pause has Space.
  return key->key() == Qt::Key_Space;
}

}  // namespace ascope
