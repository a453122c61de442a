#pragma once
// The docks of the main window: one per panel, each with an objectName (saveState needs it) and a
// toggle in the View menu; movable, floatable and tabbable. Arranges the default layout (also
// "Reset layout") and saves/restores the user's layout with QSettings.
#include <QList>
#include <QObject>
#include <QString>

class QDockWidget;
class QMainWindow;
class QMenu;
class QWidget;

namespace ascope {

class DockLayout : public QObject {
  Q_OBJECT

 public:
  explicit DockLayout(QMainWindow* window);

  /// Wraps `content` in a dock named `object_name` and lists it in the View menu.
  QDockWidget* addDock(const QString& object_name, const QString& title, QWidget* content);
  /// The toggles of every dock, in the order they were added.
  void fillViewMenu(QMenu* menu) const;

  /// The default arrangement: Run and Sample on the left, curves and log in the middle, attention
  /// and positional encoding on the right (sizes for the window's current size).
  void resetLayout();
  void saveLayout() const;
  /// True when a saved layout was found and applied.
  bool restoreLayout();

  QDockWidget* dock(const QString& object_name) const;
  const QList<QDockWidget*>& docks() const { return docks_; }

 private:
  QMainWindow* window_;
  QList<QDockWidget*> docks_;
};

}  // namespace ascope
