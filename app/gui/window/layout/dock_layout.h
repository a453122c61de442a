#pragma once
// The docks of the main window: one per panel, each with an objectName (saveState needs it) and a
// toggle in the View menu; movable, floatable and tabbable. Arranges them as a workspace (Train,
// Inspect, Present: workspace.h) for the window's size, and saves/restores the user's layout
// with QSettings. While presentation, dock full screen or font zoom have changed the layout, the
// layout from before is "held": that one, not theirs, is what is saved at exit.
#include <QList>
#include <QObject>
#include <QSize>
#include <QString>

#include <utility>
#include <vector>

#include "app/gui/window/layout/layout_snapshot.h"
#include "app/gui/window/layout/workspace.h"

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

  /// The default arrangement: the Train workspace for the window's current size.
  void resetLayout();
  /// Places every dock as `workspace` says and shares the window out by its shares.
  void arrange(const Workspace& workspace);
  /// Only the sizes: each column and row of `workspace` gets its share of the window again.
  void shareOut(const Workspace& workspace);
  /// The workspace arranged last ("train" at first).
  QString currentWorkspace() const { return workspace_; }
  /// Arranges the workspace `id` for the window's current size.
  void showWorkspace(const QString& id);

  void saveLayout() const;
  /// True when a saved layout was found and applied.
  bool restoreLayout();

  /// `holder` changes the layout for a while and will put back `before`: until release(holder),
  /// the layout saved at exit is the one held first (the user's own).
  void hold(const QObject* holder, const LayoutSnapshot& before);
  void release(const QObject* holder);
  bool isHeld() const { return !held_.empty(); }

  QDockWidget* dock(const QString& object_name) const;
  const QList<QDockWidget*>& docks() const { return docks_; }

 private:
  QMainWindow* window_;
  QList<QDockWidget*> docks_;
  QString workspace_ = QStringLiteral("train");
  std::vector<std::pair<const QObject*, LayoutSnapshot>> held_;
};

}  // namespace ascope
