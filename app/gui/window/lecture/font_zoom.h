#pragma once
// Font zoom for a whole window (Ctrl+= / Ctrl+− / Ctrl+0), for a projector at the back of a
// lecture hall. The zoomed font is set on the window, so every widget that inherits its font
// follows, and every ThemedPlot rebuilds its theme (axis, tick, title and legend fonts) on the
// FontChange. Widgets that pinned their own point size (a larger sample text, the log's fixed
// font) would not follow; their unzoomed size is remembered the first time the window is zoomed
// and scaled from there.
#include <QObject>

class QWidget;

namespace ascope {

class FontZoom : public QObject {
  Q_OBJECT

 public:
  static constexpr int kMinSteps = -3;
  static constexpr int kMaxSteps = 8;

  explicit FontZoom(QWidget* root);

  /// 0 = the application's font; each step is 20 % larger (or smaller).
  int steps() const { return steps_; }
  double factor() const { return factorFor(steps_); }
  static double factorFor(int steps);

  /// Clamped to kMinSteps..kMaxSteps.
  void setSteps(int steps);
  void zoomIn() { setSteps(steps_ + 1); }
  void zoomOut() { setSteps(steps_ - 1); }
  void reset() { setSteps(0); }

 Q_SIGNALS:
  /// Before a change from `steps` (the fonts are still those of `steps`).
  void aboutToZoom(int steps);
  void zoomChanged(int steps);

 private:
  /// Records the unzoomed size of every widget below the root that pinned its own size.
  void rememberPinnedSizes();
  void apply();

  QWidget* root_;
  int steps_ = 0;
};

}  // namespace ascope
