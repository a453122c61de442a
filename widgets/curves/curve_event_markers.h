#pragma once
// Things that happened to a run, drawn on a curve plot: a solid vertical line at the step with a
// short label at the bottom ("lr 5e-4"), e.g. a learning rate changed while training. Apart from
// bookmarks (curve_bookmarks.h), which are a person's notes at the top of the plot: both may mark
// the same step without covering each other.
#include "widgets/curves/curve_marker_layer.h"

namespace ascope {

class CurveEventMarkers : public CurveMarkerLayer {
  Q_OBJECT

 public:
  /// Draws into `plot` (which owns the items); lives as long as the plot.
  explicit CurveEventMarkers(ThemedPlot* plot);
};

}  // namespace ascope
