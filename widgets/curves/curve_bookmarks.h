#pragma once
// Bookmarks drawn on a curve plot: a dashed vertical line at each bookmarked step with a short
// label at the top (the note's first words). A click within a few pixels of a marker asks for that
// exact step (markerClicked), so a lecturer lands on the bookmark rather than the nearest snapshot
// to where the mouse was. The markers' text is the whole note.
#include "widgets/curves/curve_marker_layer.h"

namespace ascope {

class CurveBookmarks : public CurveMarkerLayer {
  Q_OBJECT

 public:
  /// Draws into `plot` (which owns the items); lives as long as the plot.
  explicit CurveBookmarks(ThemedPlot* plot);
};

}  // namespace ascope
