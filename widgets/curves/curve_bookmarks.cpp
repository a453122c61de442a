#include "widgets/curves/curve_bookmarks.h"

namespace ascope {
namespace {

/// Dashed, in the warning colour, labelled at the top: apart from the run's event markers at the
/// bottom, so both may mark the same step. Labels are cut to 24 characters: the plot shows where
/// each note is, not the note.
CurveMarkerStyle bookmarkStyle() {
  CurveMarkerStyle style;
  style.colour = &PlotTheme::warning;
  style.line_style = Qt::DashLine;
  style.label_alpha = 200;
  style.label_prefix = QStringLiteral("★ ");
  style.label_chars = 24;
  style.clickable = true;
  return style;
}

}  // namespace

CurveBookmarks::CurveBookmarks(ThemedPlot* plot) : CurveMarkerLayer(plot, bookmarkStyle()) {}

}  // namespace ascope
