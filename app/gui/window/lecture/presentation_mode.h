#pragma once
// Presentation mode (View → Presentation, F11): a projector layout in which the Attention dock
// takes most of the screen, the curves and the sample share a narrow column as tabs, and the docks
// a class rarely looks at (Run, Log, Heads, Ablation, Decoding) are hidden but stay in the View
// menu, each as a tab of that column. Leaving restores the layout and window state from before.
#include <QByteArray>
#include <QObject>

class QMainWindow;

namespace ascope {

class DockLayout;

class PresentationMode : public QObject {
  Q_OBJECT

 public:
  PresentationMode(QMainWindow* window, DockLayout* docks);

  bool isActive() const { return active_; }
  /// Whether entering also shows the window full screen (on by default; scripted screenshots
  /// keep the window size they were given).
  void setFullScreen(bool full_screen) { full_screen_ = full_screen; }

  void enter();
  void leave();
  void toggle() { active_ ? leave() : enter(); }

  /// Share of the window width the Attention dock gets.
  static constexpr double kAttentionShare = 0.72;

 Q_SIGNALS:
  void activeChanged(bool active);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void arrange();
  void resizeColumns();

  QMainWindow* window_;
  DockLayout* docks_;
  QByteArray saved_state_;
  Qt::WindowStates saved_window_state_;
  bool active_ = false;
  bool full_screen_ = true;
  bool resize_pending_ = false;
};

}  // namespace ascope
