#pragma once

#include "widgets/common/plot_theme.h"

#include "widgets/common/qcustomplot_include.h"

namespace ascope {

/// QCustomPlot that follows the widget palette (re-themed on palette and font changes), keeps its
/// paint buffers at the screen's device pixel ratio, and shows a centred hint instead of empty
/// axes while it has no data.
class ThemedPlot : public QCustomPlot {
  Q_OBJECT

 public:
  explicit ThemedPlot(QWidget* parent = nullptr);

  const PlotTheme& theme() const { return theme_; }

  /// Text shown instead of the plot while isEmptyState() is true.
  void setEmptyHint(const QString& hint);
  QString emptyHint() const { return empty_hint_; }
  void setEmptyState(bool empty);
  bool isEmptyState() const { return empty_; }

  /// Rebuilds the theme from the current palette and font, restyles everything and replots.
  void refreshTheme();

  /// Places the legend in a row above the plot, right aligned, so it never hides data. Where
  /// the row is too narrow for every entry (a narrow dock, a zoomed font) the legend wraps into
  /// more rows instead of clipping its entries.
  void placeLegendAbove();
  /// Places the legend in a column right of the axis rect, top aligned.
  void placeLegendRight(QCPAxisRect* rect);

  /// Shows `text` as a tooltip at the cursor, or hides the tooltip when text is empty.
  void showToolTipAt(const QPoint& widget_pos, const QString& text);

 Q_SIGNALS:
  /// Emitted after the theme was rebuilt; owners restyle their own graphs and items here.
  void themeChanged(const ascope::PlotTheme& theme);
  /// Emitted after every layout pass, on screen and for exports alike: items that must stay
  /// inside the axis rect (marker labels) place themselves here, before they are drawn.
  void laidOut();

 protected:
  /// Runs QCustomPlot's layout, then lets adjustLayout() react to the sizes it produced (and lays
  /// out again, at most a few times). Exports render through here too, so whatever adjustLayout
  /// decides (label thinning, square cells, column counts) also holds for a 1600x1000 export.
  void updateLayout() override;
  /// Changes margins, ticks or wrapping for the current layout; returns true when a new layout
  /// pass is needed.
  virtual bool adjustLayout() { return false; }
  /// Padding around the plot's layout that keeps exports off the image border; the margins
  /// that centre square cells are on top of it.
  static constexpr int kPad = 6;
  /// How many pixels narrower than its minimum the last layout pass left `element` (tick labels
  /// measured since, a squeezed column); 0 when it has its minimum.
  static int widthShortfall(const QCPLayoutElement* element);
  /// Shows `full` in `title` within the plot's width less `beside` (a column the title is not
  /// above, e.g. a colour scale; a title wider than a narrow dock was cut at both edges): on one
  /// line when it fits, else broken at its " · " into lines ("cross" over "layer 0" in a 140-px
  /// head grid, where one line read "cross · l…"), each line elided only if it still does not
  /// fit; true when the shown text changed.
  bool fitTitle(QCPTextElement* title, const QString& full, int beside);

  void changeEvent(QEvent* event) override;
  void paintEvent(QPaintEvent* event) override;
  void showEvent(QShowEvent* event) override;

 private:
  void syncDevicePixelRatio();
  /// Above the plot: as many legend columns as fit the row; true when that changed.
  bool wrapLegend();

  PlotTheme theme_;
  QCPLayoutGrid* legend_row_ = nullptr;  // the row placeLegendAbove made, or null
  QString empty_hint_;
  bool empty_ = false;
  bool theming_ = false;  // palette changes we cause ourselves must not recurse
};

}  // namespace ascope
