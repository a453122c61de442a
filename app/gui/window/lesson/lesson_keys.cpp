#include "app/gui/window/lesson/lesson_keys.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QKeyEvent>
#include <QLineEdit>
#include <QTextEdit>

#include "app/gui/window/lesson/lesson_player.h"

namespace ascope {

LessonKeys::LessonKeys(LessonPlayer* player, QWidget* window)
    : QObject(window), player_(player), window_(window) {}

bool LessonKeys::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() != QEvent::KeyPress && event->type() != QEvent::ShortcutOverride) return false;
  if (!player_->isLoaded()) return false;
  auto* key = static_cast<QKeyEvent*>(event);
  if (key->modifiers() != Qt::NoModifier && key->modifiers() != Qt::KeypadModifier) return false;
  if (key->key() != Qt::Key_PageDown && key->key() != Qt::Key_PageUp) return false;
  auto* widget = qobject_cast<QWidget*>(watched);
  if (!widget || widget->window() != window_ || QApplication::activeModalWidget()) return false;
  if (qobject_cast<QLineEdit*>(widget) || qobject_cast<QTextEdit*>(widget) ||
      qobject_cast<QAbstractSpinBox*>(widget))
    return false;
  if (event->type() == QEvent::ShortcutOverride) {
    // Claimed as a key press, so that no shortcut (a dock's Page Up for the layer) fires.
    event->accept();
    return true;
  }
  if (key->key() == Qt::Key_PageDown) {
    player_->next();
  } else {
    player_->previous();
  }
  return true;
}

}  // namespace ascope
