#pragma once
// What the window looks like on the screen it is on, measured from its live widgets (the scripted
// --report's "layout" object, and the layout tests): the window and screen size, each visible
// dock's title and size, whether each run control can be seen without scrolling, the smallest
// height a loss or accuracy plot has, the enlarged head's plot area, every other window shown
// (Compare, dialogs) and whether it fits the screen, and every piece of text that does not fit
// its widget —
// "elided" where the widget shortens it and says it in full in its tooltip, "clipped" where a
// reader loses part of it.
#include <QJsonArray>
#include <QJsonObject>
#include <QRect>
#include <QString>

class QWidget;

namespace ascope {

class MainWindow;

class LayoutReport {
 public:
  static QJsonObject measure(const MainWindow& window);

  /// The part of `widget` not cut off by its parents up to `top` (a scroll area's viewport, a
  /// splitter, the window's edge), in `widget`'s coordinates.
  static QRect unclippedRect(const QWidget* widget, const QWidget* top);
  /// Shown and every pixel of it inside its parents and the window: no scrolling needed.
  static bool fullyVisible(const QWidget* widget, const QWidget* top);
  /// Every text of the widgets under `top` that does not fit (see above), as
  /// {kind, widget, text, needed, available}.
  static QJsonArray textsThatDoNotFit(const QWidget* top);
};

}  // namespace ascope
