#include "app/gui/window/layout/dock_layout.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>

#include <cmath>

namespace ascope {
namespace {

constexpr int kLayoutVersion = 3;  // bump when docks are added or renamed

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
  QDockWidget* run = dock(QStringLiteral("runDock"));
  QDockWidget* log = dock(QStringLiteral("logDock"));
  QDockWidget* loss = dock(QStringLiteral("lossDock"));
  QDockWidget* accuracy = dock(QStringLiteral("accuracyDock"));
  QDockWidget* sample = dock(QStringLiteral("sampleDock"));
  QDockWidget* attention = dock(QStringLiteral("attentionDock"));
  QDockWidget* pe = dock(QStringLiteral("positionalEncodingDock"));
  QDockWidget* decoding = dock(QStringLiteral("decodingDock"));
  QDockWidget* heads = dock(QStringLiteral("headsDock"));
  QDockWidget* ablation = dock(QStringLiteral("ablationDock"));
  for (QDockWidget* d : docks_) {
    d->setFloating(false);
    window_->removeDockWidget(d);
  }
  window_->addDockWidget(Qt::LeftDockWidgetArea, run);
  window_->splitDockWidget(run, sample, Qt::Vertical);
  window_->addDockWidget(Qt::RightDockWidgetArea, loss);
  window_->splitDockWidget(loss, attention, Qt::Horizontal);
  window_->splitDockWidget(loss, accuracy, Qt::Vertical);
  window_->splitDockWidget(accuracy, log, Qt::Vertical);
  window_->splitDockWidget(attention, pe, Qt::Vertical);
  // Below the attention, one tab each: the class looks at one of them at a time.
  for (QDockWidget* tab : {decoding, heads, ablation}) {
    if (tab != nullptr) window_->tabifyDockWidget(pe, tab);
  }
  for (QDockWidget* d : docks_) d->show();
  pe->raise();

  const int width = window_->width();
  const int height = window_->height();
  window_->resizeDocks({run, loss, attention},
                       {share(width, 0.19), share(width, 0.32), share(width, 0.49)},
                       Qt::Horizontal);
  window_->resizeDocks({run, sample}, {share(height, 0.54), share(height, 0.46)}, Qt::Vertical);
  window_->resizeDocks({loss, accuracy, log},
                       {share(height, 0.35), share(height, 0.35), share(height, 0.30)},
                       Qt::Vertical);
  window_->resizeDocks({attention, pe}, {share(height, 0.58), share(height, 0.42)}, Qt::Vertical);
}

void DockLayout::saveLayout() const {
  QSettings settings;
  settings.setValue(QStringLiteral("window/geometry"), window_->saveGeometry());
  settings.setValue(QStringLiteral("window/state"), window_->saveState(kLayoutVersion));
}

bool DockLayout::restoreLayout() {
  QSettings settings;
  const QByteArray geometry = settings.value(QStringLiteral("window/geometry")).toByteArray();
  const QByteArray state = settings.value(QStringLiteral("window/state")).toByteArray();
  if (!geometry.isEmpty()) window_->restoreGeometry(geometry);
  return !state.isEmpty() && window_->restoreState(state, kLayoutVersion);
}

}  // namespace ascope
