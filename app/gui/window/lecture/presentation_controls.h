#pragma once
// What a lecture needs from the View menu: Presentation (F11), Dock full screen (Shift+F11, or
// double-click a dock's title; Esc back), Zoom in / out / reset (Ctrl+= / Ctrl+− / Ctrl+0) and
// High contrast. Owns the parts that do the work, so the main window only adds the actions.
#include <QObject>
#include <QPalette>

#include "app/gui/window/layout/layout_snapshot.h"

class QAction;
class QMainWindow;
class QMenu;

namespace ascope {

class DockFullScreen;
class DockLayout;
class FontZoom;
class PresentationMode;

class PresentationControls : public QObject {
  Q_OBJECT

 public:
  PresentationControls(QMainWindow* window, DockLayout* docks);

  /// Adds the actions (with their shortcuts) to `menu`.
  void fillViewMenu(QMenu* menu) const;
  /// Leaves presentation and any dock shown alone: the layout the user made comes back.
  void leaveAll();
  /// Whether Presentation and Dock full screen also make the window full screen.
  void setFullScreen(bool full_screen);

  void setHighContrast(bool on);
  bool isHighContrast() const { return high_contrast_on_; }

  PresentationMode* presentation() const { return presentation_; }
  DockFullScreen* dockFullScreen() const { return dock_full_screen_; }
  FontZoom* fontZoom() const { return zoom_; }
  QAction* presentationAction() const { return presentation_action_; }
  QAction* highContrastAction() const { return high_contrast_action_; }

 private:
  /// Font zoom changes minimum sizes and so the docks' sizes: the layout from before the first
  /// step is held, and put back at Ctrl+0, as long as presentation and dock full screen are
  /// still as they were then.
  void beforeZoom(int steps);
  void afterZoom(int steps);
  /// Which of presentation and dock full screen is on ("" for neither).
  QString mode() const;

  QMainWindow* window_;
  DockLayout* docks_;
  LayoutSnapshot before_zoom_;
  QString zoom_mode_;
  PresentationMode* presentation_ = nullptr;
  DockFullScreen* dock_full_screen_ = nullptr;
  FontZoom* zoom_ = nullptr;
  QAction* presentation_action_ = nullptr;
  QAction* dock_action_ = nullptr;
  QAction* zoom_in_ = nullptr;
  QAction* zoom_out_ = nullptr;
  QAction* zoom_reset_ = nullptr;
  QAction* high_contrast_action_ = nullptr;
  QPalette palette_before_;  ///< the application palette high contrast replaced
  bool high_contrast_on_ = false;
};

}  // namespace ascope
