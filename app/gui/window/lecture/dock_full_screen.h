#pragma once
// One dock alone on the whole screen: double-click its title bar or press Shift+F11 (the dock with
// the keyboard focus, else Attention); Esc brings back the layout and window state from before.
// The other docks are only hidden meanwhile, so every panel keeps its data and its state.
#include <QDockWidget>
#include <QList>
#include <QObject>
#include <QPointer>

#include "app/gui/window/layout/layout_snapshot.h"

class QMainWindow;

namespace ascope {

class DockLayout;

class DockFullScreen : public QObject {
  Q_OBJECT

 public:
  DockFullScreen(QMainWindow* window, DockLayout* layout);

  /// Whether showing a dock also makes the window full screen (on by default).
  void setFullScreen(bool full_screen) { full_screen_ = full_screen; }

  /// The dock shown alone, or null.
  QDockWidget* current() const { return current_; }
  void show(QDockWidget* dock);
  void leave();
  /// The dock that holds the keyboard focus, else the Attention dock: what Shift+F11 shows.
  QDockWidget* focusedDock() const;
  void toggleFocused();

 Q_SIGNALS:
  void currentChanged(QDockWidget* dock);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  static bool onTitleBar(const QDockWidget* dock, const QPoint& pos);

  QMainWindow* window_;
  DockLayout* layout_;
  QList<QDockWidget*> docks_;
  QPointer<QDockWidget> current_;
  LayoutSnapshot before_;
  bool full_screen_ = true;
};

}  // namespace ascope
