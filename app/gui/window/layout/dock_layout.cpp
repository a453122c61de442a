#include "app/gui/window/layout/dock_layout.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>

#include <cmath>

namespace ascope {
namespace {

constexpr int kLayoutVersion = 6;  // bump when docks are added or renamed

int share(int total, double fraction) {
  return static_cast<int>(std::lround(total * fraction));
}

}  // namespace

DockLayout::DockLayout(QMainWindow* window) : QObject(window), window_(window) {
  window_->setDockNestingEnabled(true);
  window_->setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowNestedDocks |
                          QMainWindow::AllowTabbedDocks | QMainWindow::GroupedDragging);
}

QDockWidget* DockLayout::addDock(const QString& object_name, const QString& title,
                                 QWidget* content) {
  auto* dock = new QDockWidget(title, window_);
  dock->setObjectName(object_name);
  dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                    QDockWidget::DockWidgetClosable);
  dock->setWidget(content);
  dock->toggleViewAction()->setText(title);
  docks_.push_back(dock);
  window_->addDockWidget(Qt::RightDockWidgetArea, dock);
  return dock;
}

void DockLayout::fillViewMenu(QMenu* menu) const {
  for (QDockWidget* dock : docks_) menu->addAction(dock->toggleViewAction());
}

QDockWidget* DockLayout::dock(const QString& object_name) const {
  for (QDockWidget* d : docks_) {
    if (d->objectName() == object_name) return d;
  }
  return nullptr;
}

void DockLayout::resetLayout() {
  showWorkspace(QStringLiteral("train"));
}

void DockLayout::showWorkspace(const QString& id) {
  const Workspace workspace = Workspace::byId(id, window_->size());
  workspace_ = workspace.id;
  arrange(workspace);
}

void DockLayout::arrange(const Workspace& workspace) {
  const QStringList named = workspace.named();
  QDockWidget* catch_all = nullptr;
  for (QDockWidget* d : docks_) {
    d->setFloating(false);
    window_->removeDockWidget(d);
  }
  // Columns first (side by side), then the rows of each (one above the other), then the tabs:
  // splitting a dock that is already tabbed would only add another tab.
  std::vector<QDockWidget*> heads;  // first dock of each column's first row
  for (const WorkspaceColumn& column : workspace.columns) {
    QDockWidget* head = column.rows.empty() ? nullptr : dock(column.rows.front().docks.value(0));
    if (head == nullptr) continue;
    if (heads.empty()) {
      window_->addDockWidget(Qt::LeftDockWidgetArea, head);
    } else if (heads.size() == 1) {
      window_->addDockWidget(Qt::RightDockWidgetArea, head);
    } else {
      window_->splitDockWidget(heads.back(), head, Qt::Horizontal);
    }
    heads.push_back(head);
  }
  QList<QDockWidget*> raised;
  std::vector<QList<QDockWidget*>> tab_groups;  // tabbed only once every row is split off
  for (const WorkspaceColumn& column : workspace.columns) {
    QDockWidget* above = nullptr;
    for (const WorkspaceRow& row : column.rows) {
      QList<QDockWidget*> members;
      for (const QString& name : row.docks) {
        if (QDockWidget* d = dock(name)) members << d;
      }
      if (members.isEmpty()) continue;
      QDockWidget* head = members.front();
      if (above != nullptr) window_->splitDockWidget(above, head, Qt::Vertical);
      above = head;
      tab_groups.push_back(members);
      if (row.takes_others) catch_all = head;
      raised << head;
    }
  }
  for (const QList<QDockWidget*>& members : tab_groups) {
    for (QDockWidget* tab : members.mid(1)) window_->tabifyDockWidget(members.front(), tab);
  }
  if (catch_all == nullptr && !raised.isEmpty()) catch_all = raised.back();
  for (QDockWidget* d : docks_) {
    const QString name = d->objectName();
    const bool placed = named.contains(name) && !workspace.hidden.contains(name);
    if (!placed && catch_all != nullptr) window_->tabifyDockWidget(catch_all, d);
  }
  for (QDockWidget* d : docks_) d->setVisible(!workspace.hidden.contains(d->objectName()));
  for (QDockWidget* d : raised) d->raise();
  shareOut(workspace);
}

void DockLayout::shareOut(const Workspace& workspace) {
  QList<QDockWidget*> column_heads;
  QList<int> widths;
  for (const WorkspaceColumn& column : workspace.columns) {
    QList<QDockWidget*> row_heads;
    QList<int> heights;
    for (const WorkspaceRow& row : column.rows) {
      QDockWidget* head = nullptr;
      for (const QString& name : row.docks) {
        if ((head = dock(name)) != nullptr) break;
      }
      if (head == nullptr) continue;
      row_heads << head;
      heights << share(window_->height(), row.height_share);
    }
    if (row_heads.isEmpty()) continue;
    column_heads << row_heads.front();
    widths << share(window_->width(), column.width_share);
    if (row_heads.size() > 1) window_->resizeDocks(row_heads, heights, Qt::Vertical);
  }
  window_->resizeDocks(column_heads, widths, Qt::Horizontal);
}

void DockLayout::saveLayout() const {
  QSettings settings;
  // The user's own layout: the one held first while a projector's or a zoom's is on screen.
  const LayoutSnapshot normal =
      held_.empty() ? LayoutSnapshot::take(window_) : held_.front().second;
  settings.setValue(QStringLiteral("window/geometry"), normal.geometry);
  settings.setValue(QStringLiteral("window/state"), normal.docks);
  settings.setValue(QStringLiteral("window/layout_version"), kLayoutVersion);
}

void DockLayout::hold(const QObject* holder, const LayoutSnapshot& before) {
  release(holder);
  held_.emplace_back(holder, before);
}

void DockLayout::release(const QObject* holder) {
  for (auto it = held_.begin(); it != held_.end(); ++it) {
    if (it->first == holder) {
      held_.erase(it);
      return;
    }
  }
}

bool DockLayout::restoreLayout() {
  QSettings settings;
  const QByteArray geometry = settings.value(QStringLiteral("window/geometry")).toByteArray();
  const QByteArray state = settings.value(QStringLiteral("window/state")).toByteArray();
  // A layout saved by an older version names docks differently: the default serves better.
  if (settings.value(QStringLiteral("window/layout_version")).toInt() != kLayoutVersion)
    return false;
  if (!geometry.isEmpty()) window_->restoreGeometry(geometry);
  return !state.isEmpty() && window_->restoreState(state, LayoutSnapshot::kVersion);
}

}  // namespace ascope
