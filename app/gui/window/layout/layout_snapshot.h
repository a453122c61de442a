#pragma once
// The arrangement of a main window at one moment: its docks (saveState), its geometry and its
// window state (normal, maximised, full screen). Presentation, dock full screen and font zoom take
// one before they change the layout and go back to it after.
//
// Going back is two steps, because dock sizes are pixels: the window state is restored first, and
// the docks once the window has its former size again. Restoring the docks while the window was
// still full screen fitted the projector's sizes into the laptop's window and kept them (after
// F11, zoom, F11 the colour bars lost their scales, and the damage was saved at exit).
#include <QByteArray>
#include <QSize>

class QMainWindow;

namespace ascope {

struct LayoutSnapshot {
  QByteArray docks;  ///< QMainWindow::saveState
  QByteArray geometry;
  Qt::WindowStates window_state;
  QSize size;

  static constexpr int kVersion = 1;

  bool isEmpty() const { return docks.isEmpty(); }
  static LayoutSnapshot take(const QMainWindow* window);
  /// Window state now; the docks now and again once the window has `size` (or after a moment,
  /// if the window manager never gives it back).
  void restore(QMainWindow* window) const;
};

}  // namespace ascope
