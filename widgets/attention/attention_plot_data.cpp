#include "widgets/attention/attention_plot_data.h"

#include <QCoreApplication>

namespace ascope {

int AttentionPlotGroup::headCount(int layer) const {
  if (layer < 0 || layer >= layerCount()) return 0;
  return static_cast<int>(layers[static_cast<size_t>(layer)].size());
}

QString AttentionPlotGroup::headName(int head) const {
  if (head >= 0 && head < head_names.size()) return head_names[head];
  return QCoreApplication::translate("AttentionPlotGroup", "head %1").arg(head);
}

}  // namespace ascope
