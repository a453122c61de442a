#include "app/gui/window/lecture/presentation_mode.h"

#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QTimer>

#include <cmath>

#include "app/gui/window/layout/dock_layout.h"

namespace ascope {
namespace {

constexpr int kLayoutVersion = 1;  // of the state saved on entering, restored on leaving

int share(int total, double fraction) {
  return static_cast<int>(std::lround(total * fraction));
}

}  // namespace

PresentationMode::PresentationMode(QMainWindow* window, DockLayout* docks)
    : QObject(window), window_(window), docks_(docks) {}

void PresentationMode::enter() {
  if (active_) return;
  saved_state_ = window_->saveState(kLayoutVersion);
  saved_window_state_ = window_->windowState();
  active_ = true;
  arrange();
  if (full_screen_) window_->setWindowState(saved_window_state_ | Qt::WindowFullScreen);
  // The window reaches its full-screen size later (the window manager decides when); the
  // columns are shared out again at every resize while presenting.
  window_->installEventFilter(this);
  Q_EMIT activeChanged(true);
}

void PresentationMode::leave() {
  if (!active_) return;
  active_ = false;
  window_->removeEventFilter(this);
  if (full_screen_) window_->setWindowState(saved_window_state_);
  window_->restoreState(saved_state_, kLayoutVersion);
  Q_EMIT activeChanged(false);
}

bool PresentationMode::eventFilter(QObject* watched, QEvent* event) {
  if (watched == window_ && event->type() == QEvent::Resize && active_ && !resize_pending_) {
    resize_pending_ = true;
    QTimer::singleShot(0, this, [this] {
      resize_pending_ = false;
      if (active_) resizeColumns();
    });
  }
  return QObject::eventFilter(watched, event);
}

void PresentationMode::arrange() {
  QDockWidget* attention = docks_->dock(QStringLiteral("attentionDock"));
  QDockWidget* loss = docks_->dock(QStringLiteral("lossDock"));
  QDockWidget* accuracy = docks_->dock(QStringLiteral("accuracyDock"));
  QDockWidget* sample = docks_->dock(QStringLiteral("sampleDock"));
  QDockWidget* pe = docks_->dock(QStringLiteral("positionalEncodingDock"));
  if (attention == nullptr || loss == nullptr || accuracy == nullptr || sample == nullptr ||
      pe == nullptr)
    return;
  for (QDockWidget* d : docks_->docks()) {
    d->setFloating(false);
    window_->removeDockWidget(d);
  }
  window_->addDockWidget(Qt::RightDockWidgetArea, attention);
  window_->addDockWidget(Qt::LeftDockWidgetArea, loss);
  // Split before tabbing: splitting a tabbed dock would only add another tab.
  window_->splitDockWidget(loss, sample, Qt::Vertical);
  window_->tabifyDockWidget(loss, accuracy);
  window_->tabifyDockWidget(sample, pe);
  QList<QDockWidget*> hidden;
  for (QDockWidget* d : docks_->docks()) {
    if (d == attention || d == loss || d == accuracy || d == sample || d == pe) continue;
    window_->tabifyDockWidget(sample, d);
    hidden.push_back(d);
  }
  for (QDockWidget* d : {attention, loss, accuracy, sample, pe}) d->show();
  for (QDockWidget* d : hidden) d->hide();
  loss->raise();
  sample->raise();
  resizeColumns();
}

void PresentationMode::resizeColumns() {
  QDockWidget* attention = docks_->dock(QStringLiteral("attentionDock"));
  QDockWidget* loss = docks_->dock(QStringLiteral("lossDock"));
  QDockWidget* sample = docks_->dock(QStringLiteral("sampleDock"));
  if (attention == nullptr || loss == nullptr || sample == nullptr) return;
  const int width = window_->width();
  const int height = window_->height();
  window_->resizeDocks({loss, attention},
                       {share(width, 1 - kAttentionShare), share(width, kAttentionShare)},
                       Qt::Horizontal);
  window_->resizeDocks({loss, sample}, {share(height, 0.5), share(height, 0.5)}, Qt::Vertical);
}

}  // namespace ascope
