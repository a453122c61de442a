#include "app/gui/window/lecture/presentation_controls.h"

#include <QAction>
#include <QApplication>
#include <QMainWindow>
#include <QMenu>
#include <QTimer>

#include "app/gui/window/layout/dock_layout.h"
#include "app/gui/window/lecture/dock_full_screen.h"
#include "app/gui/window/lecture/font_zoom.h"
#include "app/gui/window/lecture/high_contrast_palette.h"
#include "app/gui/window/lecture/presentation_mode.h"

namespace ascope {
namespace {

/// `keys` without repeats: one action bound twice to the same key would be ambiguous to itself
/// and never fire (the platform's ZoomOut is often Ctrl+- already).
QList<QKeySequence> distinct(const QList<QKeySequence>& keys) {
  QList<QKeySequence> out;
  for (const QKeySequence& key : keys) {
    if (!key.isEmpty() && !out.contains(key)) out.push_back(key);
  }
  return out;
}

}  // namespace

PresentationControls::PresentationControls(QMainWindow* window, DockLayout* docks)
    : QObject(window), window_(window), docks_(docks) {
  presentation_ = new PresentationMode(window, docks);
  dock_full_screen_ = new DockFullScreen(window, docks);
  zoom_ = new FontZoom(window);
  connect(zoom_, &FontZoom::aboutToZoom, this, &PresentationControls::beforeZoom);
  connect(zoom_, &FontZoom::zoomChanged, this, &PresentationControls::afterZoom);

  presentation_action_ = new QAction(tr("&Presentation"), this);
  presentation_action_->setObjectName(QStringLiteral("presentationAction"));
  presentation_action_->setCheckable(true);
  presentation_action_->setShortcut(QKeySequence(Qt::Key_F11));
  presentation_action_->setToolTip(tr("Attention on most of the screen, full screen (F11)"));
  connect(presentation_action_, &QAction::triggered, this, [this](bool on) {
    dock_full_screen_->leave();
    on ? presentation_->enter() : presentation_->leave();
  });
  connect(presentation_, &PresentationMode::activeChanged, presentation_action_,
          &QAction::setChecked);

  dock_action_ = new QAction(tr("&Dock full screen"), this);
  dock_action_->setObjectName(QStringLiteral("dockFullScreenAction"));
  dock_action_->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F11));
  dock_action_->setToolTip(
      tr("The dock with the keyboard focus alone on the screen; Esc brings the layout back "
         "(double-click a dock's title does the same)"));
  connect(dock_action_, &QAction::triggered, dock_full_screen_, &DockFullScreen::toggleFocused);

  // Ctrl+= is where Ctrl++ sits without Shift on most keyboards; both zoom in.
  zoom_in_ = new QAction(tr("Zoom &in"), this);
  zoom_in_->setObjectName(QStringLiteral("zoomInAction"));
  zoom_in_->setShortcuts(
      distinct({QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence(QKeySequence::ZoomIn)}));
  connect(zoom_in_, &QAction::triggered, zoom_, &FontZoom::zoomIn);
  zoom_out_ = new QAction(tr("Zoom &out"), this);
  zoom_out_->setObjectName(QStringLiteral("zoomOutAction"));
  zoom_out_->setShortcuts(
      distinct({QKeySequence(Qt::CTRL | Qt::Key_Minus), QKeySequence(QKeySequence::ZoomOut)}));
  connect(zoom_out_, &QAction::triggered, zoom_, &FontZoom::zoomOut);
  zoom_reset_ = new QAction(tr("&Actual size"), this);
  zoom_reset_->setObjectName(QStringLiteral("zoomResetAction"));
  zoom_reset_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
  connect(zoom_reset_, &QAction::triggered, zoom_, &FontZoom::reset);

  high_contrast_action_ = new QAction(tr("&High contrast"), this);
  high_contrast_action_->setObjectName(QStringLiteral("highContrastAction"));
  high_contrast_action_->setCheckable(true);
  connect(high_contrast_action_, &QAction::toggled, this, &PresentationControls::setHighContrast);
}

QString PresentationControls::mode() const {
  if (dock_full_screen_->current() != nullptr) return QStringLiteral("dock");
  return presentation_->isActive() ? QStringLiteral("presentation") : QString();
}

void PresentationControls::beforeZoom(int steps) {
  if (steps != 0) return;
  before_zoom_ = LayoutSnapshot::take(window_);
  zoom_mode_ = mode();
  docks_->hold(zoom_, before_zoom_);
}

void PresentationControls::afterZoom(int steps) {
  if (steps != 0 || before_zoom_.isEmpty()) return;
  // Presentation entered or left meanwhile has put back (or will) a layout of its own. After the
  // event loop has laid out the unzoomed fonts: the old minimum sizes would distort it.
  // Only the normal layout is put back: a presentation or a dock alone lays itself out again, and
  // a snapshot of it restored late would outlive it (it hid the Run dock after F11).
  if (zoom_mode_.isEmpty() && mode().isEmpty()) {
    QTimer::singleShot(0, this, [this, before = before_zoom_] {
      if (zoom_->steps() == 0) before.restore(window_);
    });
  }
  before_zoom_ = {};
  docks_->release(zoom_);
}

void PresentationControls::fillViewMenu(QMenu* menu) const {
  menu->addAction(presentation_action_);
  menu->addAction(dock_action_);
  menu->addSeparator();
  menu->addAction(zoom_in_);
  menu->addAction(zoom_out_);
  menu->addAction(zoom_reset_);
  menu->addSeparator();
  menu->addAction(high_contrast_action_);
}

void PresentationControls::leaveAll() {
  dock_full_screen_->leave();
  presentation_->leave();
}

void PresentationControls::setFullScreen(bool full_screen) {
  presentation_->setFullScreen(full_screen);
  dock_full_screen_->setFullScreen(full_screen);
}

void PresentationControls::setHighContrast(bool on) {
  if (on == high_contrast_on_) return;
  high_contrast_on_ = on;
  if (on) {
    palette_before_ = QApplication::palette();
    QApplication::setPalette(highContrastPalette());
  } else {
    QApplication::setPalette(palette_before_);
  }
  high_contrast_action_->setChecked(on);
}

}  // namespace ascope
