#pragma once
// Keeps a person's main window on its screen: a font zoom step made the window's
// minimum size larger than a 1280 × 720 screen (Ctrl+= twice: 722 px tall at y = 32, the status
// bar and the dock tabs lost), and leaving full screen left it at 0,0 with its title bar above
// the screen (openbox). After every zoom step and every return to a normal window it checks the
// window against the screen's available area: a zoom the screen cannot hold is stepped back, and
// said; a window that reaches past the area is moved, and shrunk where needed, into it.
// Not for scripted runs, whose window keeps the --size asked for.
#include <QObject>

class QWidget;

namespace ascope {

class FontZoom;

class WindowOnScreen : public QObject {
  Q_OBJECT

 public:
  WindowOnScreen(QWidget* window, FontZoom* zoom);

  /// Whether `window`'s minimum size and frame fit the available area of its screen.
  static bool minimumFits(const QWidget* window);

 Q_SIGNALS:
  /// A sentence for the status bar: why a zoom step was taken back.
  void message(const QString& text);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void zoomed(int steps);
  /// After the event loop has laid the window out again (and the window manager has framed it).
  void checkSoon(int delay_ms);
  void check();

  QWidget* window_;
  FontZoom* zoom_;
  int steps_ = 0;            ///< the zoom as of the last check
  bool zoomed_in_ = false;   ///< the last step made fonts larger: only that one is taken back
  bool retreating_ = false;  ///< stepping back from a zoom the screen could not hold
  bool pending_ = false;
};

}  // namespace ascope
