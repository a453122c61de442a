#include "widgets/curves/curve_event_markers.h"

namespace ascope {
namespace {

/// Solid, in the accent colour, labelled at the bottom and staggered upwards: bookmarks label the
/// top, and changes sent in quick succession would otherwise print over each other.
CurveMarkerStyle eventStyle() {
  CurveMarkerStyle style;
  style.label_y = 0.98;
  style.label_stagger = -0.08;
  style.label_alignment = Qt::AlignLeft | Qt::AlignBottom;
  return style;
}

}  // namespace

CurveEventMarkers::CurveEventMarkers(ThemedPlot* plot) : CurveMarkerLayer(plot, eventStyle()) {}

}  // namespace ascope
