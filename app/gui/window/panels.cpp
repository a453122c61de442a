#include "app/gui/window/panels.h"

#include "app/gui/views/attention_timeline_view.h"
#include "widgets/attention_head_grid_panel.h"
#include "widgets/metric_curve_panel.h"
#include "widgets/positional_encoding_panel.h"
#include "widgets/sample_panel.h"

namespace ascope {

QList<Exportable*> Panels::exportables() const {
  return {loss, accuracy, attention->panel(), positional_encoding, sample};
}

}  // namespace ascope
