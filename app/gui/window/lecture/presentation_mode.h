#pragma once
// Presentation mode (View → Presentation, F11): the Present workspace full screen — the Attention
// dock on most of the screen, the curves and the sample sharing a narrow column as tabs, and the
// docks a class rarely looks at (Run, Log, Heads, Ablation, Decoding) hidden but still in the View
// menu, each as a tab of that column. The run toolbar stays, so the run's state and controls are
// on screen while presenting. Leaving restores the layout and window state from before; until
// then that layout is held (DockLayout::hold), so closing while presenting saves the user's
// layout, not the projector's.
#include <QObject>

#include "app/gui/window/layout/layout_snapshot.h"

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

 Q_SIGNALS:
  void activeChanged(bool active);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void arrange();

  QMainWindow* window_;
  DockLayout* docks_;
  LayoutSnapshot before_;
  bool active_ = false;
  bool full_screen_ = true;
  bool resize_pending_ = false;
};

}  // namespace ascope
