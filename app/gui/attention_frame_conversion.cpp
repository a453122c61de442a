#include "app/gui/attention_frame_conversion.h"

#include <utility>

namespace ascope {

AttentionPlotData toWidgetSnapshot(AttentionFrame&& frame) {
  AttentionPlotData snapshot;
  snapshot.step = frame.step;
  snapshot.groups.reserve(frame.groups.size());
  for (AttentionFrameGroup& group : frame.groups) {
    AttentionPlotGroup out;
    out.name = std::move(group.name);
    out.query_title = std::move(group.query_title);
    out.key_title = std::move(group.key_title);
    out.layers = std::move(group.layers);
    snapshot.groups.push_back(std::move(out));
  }
  if (frame.image.isValid() && frame.grid_rows > 0 && frame.grid_cols > 0) {
    snapshot.image.image = std::move(frame.image);
    snapshot.image.grid_rows = frame.grid_rows;
    snapshot.image.grid_cols = frame.grid_cols;
    snapshot.image.has_cls_token = true;
  }
  return snapshot;
}

}  // namespace ascope
