#include "widgets/attention_plot_data.h"

namespace ascope {

int AttentionPlotGroup::headCount(int layer) const {
  if (layer < 0 || layer >= layerCount()) return 0;
  return static_cast<int>(layers[static_cast<size_t>(layer)].size());
}

}  // namespace ascope
