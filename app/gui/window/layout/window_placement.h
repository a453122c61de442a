#pragma once
// Where a restored window may go: a saved geometry from a larger or a since-removed screen would
// put the title bar or the status bar out of reach.
#include <QMargins>
#include <QRect>

class QScreen;
class QWidget;

namespace ascope {

/// Room the window manager's frame takes around the client area (title bar on top), assumed
/// before the window is shown, when the real frame is not known yet.
inline constexpr QMargins kAssumedFrame{8, 32, 8, 8};

/// `client` (a window's client-area geometry) moved and, where needed, shrunk so that it and its
/// frame lie inside `available` (the screen's available geometry).
QRect fitIntoScreen(const QRect& client, const QRect& available,
                    const QMargins& frame = kAssumedFrame);

/// The screen `window` is mostly on (the primary one when it is on none); null without screens.
QScreen* screenOf(const QWidget* window);

/// The frame around `window`'s client area as the window manager draws it, or kAssumedFrame
/// while it is not known (not shown yet, just out of full screen, a platform without frames).
QMargins frameOf(const QWidget* window);

/// Fits a top-level window that is neither maximised nor full screen into the available geometry
/// of the screen it is mostly on (the primary one when it is on none).
void fitWindowIntoScreen(QWidget* window);

}  // namespace ascope
